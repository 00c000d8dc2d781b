package main

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The read-only commands (list, board check) and unlock create no folder:
// an estate that does not exist, or holds no agents folder, is a usage
// error naming it (so a mistyped --home is never read as an empty estate);
// only dispatch open creates the estate.
func TestReadOnlyCommandsCreateNoEstate(t *testing.T) {
	c := binClasses[0]
	parent := t.TempDir()
	missing := filepath.Join(parent, "typo", "estate")
	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, home := range []string{missing, empty} {
		for _, args := range [][]string{
			{"dispatch", "list"}, {"dispatch", "list", "--agent", "demo", "--json"},
			{"board", "check"}, {"board", "check", "--agent", "demo", "--json"},
			{"dispatch", "unlock"}, {"dispatch", "unlock", "--agent", "demo"}, {"dispatch", "unlock", "--force", "--agent", "demo"},
		} {
			r := c.run(t, home, args...)
			want := "pa: no estate at " + home + " (nothing recorded there yet)\n"
			if r.code != 1 || r.stderr != want || r.stdout != "" {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", home, args, r.code, r.stdout, r.stderr, want)
			}
		}
		r := c.run(t, home, "board", "check", "--hook-envelope")
		if r.code != 0 || r.stdout != `{"ok":false,"problems":["pa: no estate at `+home+` (nothing recorded there yet)"]}`+"\n" {
			t.Errorf("%s: board check --hook-envelope: exit %d, stdout %q; want exit 0 and the error in the envelope", home, r.code, r.stdout)
		}
	}
	if left := estatetest.Files(t, parent); len(left) != 1 || left[0] != "empty/" {
		t.Errorf("the read-only commands left %q; want only the empty folder made by the test", left)
	}
	if r := c.run(t, missing, "dispatch", "open", "--agent", "demo"); r.code != 0 || r.stdout != "1\n" {
		t.Errorf("open in a missing estate: exit %d, stdout %q, stderr %q; want it created and id 1", r.code, r.stdout, r.stderr)
	}
	if r := c.run(t, missing, "dispatch", "list"); r.code != 0 || !strings.HasPrefix(r.stdout, "demo\t1\t") {
		t.Errorf("list after open: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// An empty --home or --agent, on the command line or through PA_HOME or
// PA_AGENT set to "", is a usage error (exit 1) that touches nothing; it
// never means the default estate or every agent. A name with white space at
// its ends is refused too, and an invalid PA_AGENT is said as PA_AGENT's.
func TestEmptyHomeAndAgentAreUsageErrors(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("open: exit %d, %q", r.code, r.stderr)
	}
	before := estatetest.Snapshot(t, home)
	user := t.TempDir() // HOME: ~/.pa must not be touched either
	for _, tc := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"--home", "", "dispatch", "list"}, "pa: --home is empty: give the estate's folder, or leave --home out\n"},
		{nil, []string{"--home=", "board", "check"}, "pa: --home is empty: give the estate's folder, or leave --home out\n"},
		{[]string{"PA_HOME="}, []string{"dispatch", "unlock"}, "pa: PA_HOME is set but empty: set it to the estate's folder, or unset it\n"},
		{[]string{"PA_HOME="}, []string{"dispatch", "open", "--agent", "demo"}, "pa: PA_HOME is set but empty: set it to the estate's folder, or unset it\n"},
		{nil, []string{"--home", home, "dispatch", "list", "--agent", ""}, "pa: --agent is empty: give an agent's name, or leave --agent out for every agent\n"},
		{nil, []string{"--home", home, "board", "check", "--agent="}, "pa: --agent is empty: give an agent's name, or leave --agent out for every agent\n"},
		{nil, []string{"--home", home, "dispatch", "unlock", "--agent", ""}, "pa: --agent is empty: give an agent's name, or leave --agent out for every agent\n"},
		{[]string{"PA_AGENT="}, []string{"--home", home, "dispatch", "list"}, "pa: PA_AGENT is set but empty: set it to an agent's name, or unset it for every agent\n"},
		// open needs an agent: neither line offers to leave it out.
		{[]string{"PA_AGENT="}, []string{"--home", home, "dispatch", "open"}, "pa: PA_AGENT is set but empty: set it to an agent's name\n"},
		{nil, []string{"--home", home, "dispatch", "open", "--agent", ""}, "pa: --agent is empty: give an agent's name\n"},
		{nil, []string{"--home", home, "dispatch", "open"},
			"pa: dispatch open needs --agent NAME, or PA_AGENT set to an agent's name (see pa dispatch open --help)\n"},
		{nil, []string{"--home", home, "dispatch", "open", "--agent", " demo"}, `pa: invalid agent name " demo": it starts with white space` + "\n"},
		{nil, []string{"--home", home, "dispatch", "list", "--agent", "demo "}, `pa: invalid agent name "demo ": it ends with white space` + "\n"},
		{nil, []string{"--home", home, "dispatch", "open", "--agent", "   "}, `pa: invalid agent name "   ": it is only white space` + "\n"},
		// An invalid name from PA_AGENT says where it was read; --agent
		// given wins over it, as --help says.
		{[]string{"PA_AGENT=../x"}, []string{"--home", home, "dispatch", "list"},
			`pa: PA_AGENT holds an invalid agent name "../x": it starts with '.'; set it to an agent's name, or unset it for every agent` + "\n"},
		{[]string{"PA_AGENT=../x"}, []string{"--home", home, "dispatch", "open"}, `pa: PA_AGENT holds an invalid agent name "../x": it starts with '.'; set it to an agent's name` + "\n"},
		{[]string{"PA_AGENT=demo"}, []string{"--home", home, "dispatch", "list", "--agent", "../x"}, `pa: invalid agent name "../x": it starts with '.'` + "\n"},
	} {
		cmd := c.command(home, append(tc.env, "HOME="+user, "USERPROFILE="+user), tc.args...)
		cmd.Args = append(cmd.Args[:1], tc.args...) // no --home of the harness's own
		r := runCmd(t, cmd)
		if r.code != 1 || r.stderr != tc.want || r.stdout != "" {
			t.Errorf("%q %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.env, tc.args, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
		t.Errorf("the estate changed: %q", after)
	}
	if left := estatetest.Files(t, user); len(left) != 0 {
		t.Errorf("the user's home holds %q; want nothing (no ~/.pa)", left)
	}
}

// A spawn-log that does not parse is named in plain words, without Go
// types (exit 1, the file untouched); a nextId at the largest integer is
// refused without wrapping around, writing nothing.
func TestCorruptSpawnLogInPlainWords(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	for doc, reason := range map[string]string{
		`[]`: "it is an array, not an object",
		`{"version":1,"nextId":"3","records":[]}`: `"nextId" is a string, not an integer`,
	} {
		estatetest.WriteFile(t, home, logName, doc)
		want := "agents/demo/spawn-log.json does not parse: want a JSON object with version, nextId and records: " + reason
		for _, args := range [][]string{{"dispatch", "open", "--agent", "demo"}, {"dispatch", "list"}} {
			r := c.run(t, home, args...)
			if r.code != 1 || r.stderr != "pa: "+want+"\n" {
				t.Errorf("%s %q: exit %d, stderr %q; want exit 1 and %q", doc, args, r.code, r.stderr, want)
			}
		}
		if r := c.run(t, home, "board", "check"); r.code != 2 || r.stdout != want+"\n" {
			t.Errorf("%s: board check: exit %d, stdout %q; want exit 2 and %q", doc, r.code, r.stdout, want)
		}
		if got := readFile(t, home, logName); got != doc {
			t.Errorf("%s: the spawn-log is now %q", doc, got)
		}
	}
	full := `{"version":1,"nextId":` + strconv.Itoa(math.MaxInt) + `,"records":[]}`
	estatetest.WriteFile(t, home, logName, full)
	before := estatetest.Snapshot(t, home)
	r := c.run(t, home, "dispatch", "open", "--agent", "demo")
	if want := "pa: agents/demo/spawn-log.json: nextId is " + strconv.Itoa(math.MaxInt) + ", the largest integer: no id is left for a new dispatch\n"; r.code != 1 || r.stderr != want {
		t.Errorf("nextId MaxInt: exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
	if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
		t.Errorf("nextId MaxInt: the estate changed: %q", after)
	}
}

// --stale-window must be above 0 (like --wait, a bad one is a usage error,
// inside the envelope with --hook-envelope); a tiny window prints as
// itself.
func TestStaleWindow(t *testing.T) {
	live := locktest.LivePID(t)
	c := binClasses[0]
	home := t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now().Add(-time.Hour)))
	chtimes(t, home, logName+".lock", time.Now().Add(-time.Hour))
	for _, w := range []string{"0", "0s", "-1s"} {
		r := c.run(t, home, "board", "check", "--stale-window="+w)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: --stale-window ") || !strings.HasSuffix(r.stderr, ": want a duration above 0\n") {
			t.Errorf("--stale-window %s: exit %d, stderr %q; want exit 1", w, r.code, r.stderr)
		}
		r = c.run(t, home, "board", "check", "--stale-window="+w, "--hook-envelope")
		if r.code != 0 || !strings.HasPrefix(r.stdout, `{"ok":false,"problems":["pa: --stale-window `) {
			t.Errorf("--stale-window %s --hook-envelope: exit %d, stdout %q; want exit 0 and the error inside", w, r.code, r.stdout)
		}
	}
	r := c.run(t, home, "board", "check", "--stale-window", "1ns")
	if r.code != 2 || !strings.Contains(r.stdout, " past the 1ns stale window; ") {
		t.Errorf("--stale-window 1ns: exit %d, stdout %q; want the line to say 1ns", r.code, r.stdout)
	}
	r = c.run(t, home, "board", "check", "--stale-window", "2h")
	if r.code != 0 || r.stdout != "" {
		t.Errorf("--stale-window 2h: exit %d, stdout %q; want nothing reported", r.code, r.stdout)
	}
}

// --hook-envelope always exits 0 with one JSON object, even when kong
// cannot parse the args: the usage error is a line inside the envelope.
func TestHookEnvelopeOnKongErrors(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	for _, args := range [][]string{
		{"board", "check", "--hook-envelope", "--bogus"},
		{"board", "check", "--bogus", "--hook-envelope"},
		{"board", "check", "--hook-envelope", "--stale-window", "soon"},
		{"board", "chek", "--hook-envelope"},
		{"--home", "", "board", "check", "--hook-envelope"},
		{"board", "check", "--hook-envelope", "--agent", ""},
	} {
		r := c.run(t, home, args...)
		var env struct {
			OK       bool
			Problems []string
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK || len(env.Problems) != 1 ||
			!strings.HasPrefix(env.Problems[0], "pa: ") || r.stderr != "" || strings.Count(r.stdout, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q (%v); want exit 0 and one envelope holding the error", args, r.code, r.stdout, r.stderr, err)
		}
	}
	if r := c.run(t, home, "board", "check", "--hook-envelope=false", "--bogus"); r.code != 1 || r.stdout != "" {
		t.Errorf("--hook-envelope=false: exit %d, stdout %q; want a plain usage error", r.code, r.stdout)
	}
	// kong's own message quotes the bad arg: its escape sequence is escaped.
	if r := c.run(t, home, "board", "check", "--bo\x1b[2Jgus"); r.code != 1 || strings.Contains(r.stderr, "\x1b") || !strings.Contains(r.stderr, `--bo\x1b[2Jgus`) {
		t.Errorf("a flag holding ESC: exit %d, stderr %q; want exit 1 and the ESC escaped", r.code, r.stderr)
	}
}

// The JSON outputs keep values whole but write DEL, C1 and the bidi
// controls as \uXXXX, so no terminal sees them raw.
func TestJSONOutputEscapesTerminalControls(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	title := "t\x7f\u0085\u009b31m\u202eevil\u2066\u061c\u200e"
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", title, "--json")
	var rec struct{ Title string }
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil || r.code != 0 || rec.Title != title {
		t.Fatalf("open --json: exit %d, stdout %q (%v); want the title whole", r.code, r.stdout, err)
	}
	host := "h\u202eost\u0085"
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(locktest.LivePID(t), host, time.Now().Add(-time.Hour)))
	chtimes(t, home, logName+".lock", time.Now().Add(-time.Hour))
	outs := map[string]string{"open --json": r.stdout}
	r = c.run(t, home, "dispatch", "list", "--json")
	outs["list --json"] = r.stdout
	var recs []struct{ Title string }
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) != 1 || recs[0].Title != title {
		t.Errorf("list --json: %q (%v); want the title whole", r.stdout, err)
	}
	r = c.run(t, home, "board", "check", "--json")
	outs["check --json"] = r.stdout
	var js struct {
		Problems []struct{ Holder struct{ Hostname string } }
	}
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || len(js.Problems) != 1 || js.Problems[0].Holder.Hostname != host {
		t.Errorf("check --json: %q (%v); want the hostname whole", r.stdout, err)
	}
	r = c.run(t, home, "board", "check", "--hook-envelope")
	outs["check --hook-envelope"] = r.stdout
	for name, out := range outs {
		if i := strings.IndexFunc(out, termsafe.Unsafe); i >= 0 && out[i] != '\n' || strings.Count(out, "\n") != 1 {
			t.Errorf("%s: %q holds a raw control or bidi character", name, out)
		}
		if !strings.Contains(out, `\u202e`) {
			t.Errorf("%s: %q; want \\u202e written as an escape", name, out)
		}
	}
}
