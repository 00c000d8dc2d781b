package termsafe_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/termsafe"
)

// The characters to escape: C0, DEL, C1 and the bidi controls; nothing
// else (backslashes, quotes, other text) changes.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		`C:\Users\a "b"`:        `C:\Users\a "b"`,
		"a\x1b[31mb":            `a\x1b[31mb`,
		"a\x7fb\u0085c":         `a\x7fb\u0085c`,
		"x\u202ey\u2066z\u061c": `x\u202ey\u2066z\u061c`,
		"bad\xff":               `bad\xff`,
		"é 日本 \u200b":           "é 日本 \u200b",
	} {
		if got := termsafe.Escape(in); got != want {
			t.Errorf("Escape(%q) = %q; want %q", in, got, want)
		}
	}
}

// JSON text keeps its values, and no unsafe character is left raw in it.
func TestEscapeJSON(t *testing.T) {
	var unsafe []string
	for r := rune(0); r <= 0x206f; r++ {
		if termsafe.Unsafe(r) {
			unsafe = append(unsafe, string(r))
		}
	}
	for _, r := range []rune{0x7f, 0x80, 0x9f, 0x061c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069} {
		if !termsafe.Unsafe(r) {
			t.Errorf("Unsafe(%U) = false", r)
		}
	}
	value := map[string]string{"title": "t" + strings.Join(unsafe, "") + "é<>&\\\"", "k\u202e": "v"}
	b, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	out := termsafe.EscapeJSON(b)
	if strings.IndexFunc(string(out), termsafe.Unsafe) >= 0 {
		t.Errorf("EscapeJSON left an unsafe character raw: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["title"] != value["title"] || back["k\u202e"] != "v" {
		t.Errorf("EscapeJSON(%q) = %q, which reads back as %q (%v); want the same values", b, out, back, err)
	}
	if !strings.Contains(string(out), `\u202e`) || !strings.Contains(string(out), `\u007f`) || !strings.Contains(string(out), `\u0085`) {
		t.Errorf("EscapeJSON = %q; want \\u202e, \\u007f and \\u0085 in it", out)
	}
}
