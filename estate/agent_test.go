package estate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/estate"
)

func TestValidateAgent(t *testing.T) {
	good := []string{"demo", "a-b_c.d", "Agent 7", "é", strings.Repeat("a", 240), strings.Repeat("a", 255), "a..b", "-x"}
	for _, a := range good {
		if err := estate.ValidateAgent(a); err != nil {
			t.Errorf("ValidateAgent(%.40q) = %v; want nil", a, err)
		}
	}
	bad := []string{"", ".", "..", "../x", "a/b", `a\b`, ".hidden", strings.Repeat("a", 256), strings.Repeat("a", 300),
		"a\x00b", "a\nb", "a\x1bb", "a\x7fb", "a\u0085b", "\xff",
		" ", "   ", " demo", "demo ", "\u00a0demo", "demo\u3000", "\u2003", "a\u202eb", "\u200bzw", "a\u2066b"}
	for _, a := range bad {
		err := estate.ValidateAgent(a)
		var ae *estate.AgentError
		if !errors.As(err, &ae) || !errors.Is(err, estate.ErrInvalidAgent) || ae.Agent != a {
			t.Errorf("ValidateAgent(%.40q) = %v; want an *AgentError matching ErrInvalidAgent", a, err)
		}
		if strings.ContainsAny(err.Error(), "\x00\n\x1b\x7f") {
			t.Errorf("ValidateAgent(%.40q): the message %q holds a raw control character", a, err)
		}
	}
}

func TestDisplayCapsTheAgent(t *testing.T) {
	long := strings.Repeat("b", 240)
	got := estate.Display(long, estate.SpawnLogPath(long)+".lock")
	want := "agents/" + strings.Repeat("b", 29) + ".../spawn-log.json.lock"
	if got != want {
		t.Errorf("Display = %q; want %q", got, want)
	}
	if got := estate.Display("demo", estate.BoardPath("demo")); got != "agents/demo/board/board.json" {
		t.Errorf("Display = %q; want agents/demo/board/board.json", got)
	}
}

// White space at either end of a name is refused with a message that says
// which (a name of spaces only too); white space inside is kept.
func TestValidateAgentWhiteSpace(t *testing.T) {
	for agent, reason := range map[string]string{
		"   ":   "it is only white space",
		" demo": "it starts with white space",
		"demo ": "it ends with white space",
	} {
		err := estate.ValidateAgent(agent)
		if err == nil || !strings.HasSuffix(err.Error(), ": "+reason) {
			t.Errorf("ValidateAgent(%q) = %v; want it to end with %q", agent, err, reason)
		}
	}
	if err := estate.ValidateAgent("my agent"); err != nil {
		t.Errorf("ValidateAgent(\"my agent\") = %v; want nil", err)
	}
}
