//go:build unix

package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// An agent's folder that is a symbolic link out of the estate: every
// command that names the agent refuses it with one line saying so (exit 1,
// or 0 inside --hook-envelope) naming agents/demo or a name under it, and
// nothing outside is read into a record or written, nor anything in the
// estate.
func TestAgentFolderLeadingOutOfTheEstate(t *testing.T) {
	c := binClasses[0]
	home, outside := t.TempDir(), t.TempDir()
	estatetest.WriteFile(t, outside, "spawn-log.json", `{"version":1,"nextId":2,"records":[{"id":1,"title":"outside"}]}`)
	if err := os.MkdirAll(filepath.Join(home, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(home, "agents", "demo")); err != nil {
		t.Fatal(err)
	}
	inside, out := estatetest.Files(t, home), estatetest.Snapshot(t, outside)
	for _, args := range [][]string{
		{"dispatch", "open", "--agent", "demo"},
		{"dispatch", "list", "--agent", "demo"},
		{"board", "check", "--agent", "demo"},
		{"dispatch", "unlock", "--agent", "demo"},
		{"dispatch", "unlock", "--force", "--agent", "demo"},
	} {
		r := c.run(t, home, args...)
		want := " leads out of the estate (a symbolic link to outside it?): refused; pa reads and writes nothing outside the estate\n"
		if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "pa: agents/demo") || !strings.HasSuffix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and one line ending %q", args, r.code, r.stdout, r.stderr, want)
		}
	}
	r := c.run(t, home, "board", "check", "--agent", "demo", "--hook-envelope")
	if r.code != 0 || !strings.Contains(r.stdout, "leads out of the estate") {
		t.Errorf("--hook-envelope: exit %d, stdout %q; want exit 0 and the line in the envelope", r.code, r.stdout)
	}
	if got := estatetest.Files(t, home); !slices.Equal(got, inside) {
		t.Errorf("the estate changed: %q -> %q", inside, got)
	}
	for name, data := range estatetest.Snapshot(t, outside) {
		if out[name] != data {
			t.Errorf("outside the estate, %s changed", name)
		}
	}
}

// An agent folder that is a symbolic link out of the estate, met by the
// commands that act on every agent (no --agent): none skips it silently
// and none follows it. list exits 1 with the same line as list --agent
// (bad input: list has no "problems found" code, and a spawn-log that does
// not parse is exit 1 too) and prints no record; board check reports it as
// a problem (exit 2, in --json and --hook-envelope too); unlock names it,
// refuses it (exit 2) and goes on with the other agents. A dead holder's
// lock outside the estate is never broken, nothing outside changes.
func TestEveryAgentReportsAFolderLeadingOutOfTheEstate(t *testing.T) {
	dead := locktest.DeadPID(t)
	c := binClasses[0]
	home, outside := t.TempDir(), t.TempDir()
	estatetest.WriteFile(t, outside, "spawn-log.json", `{"version":1,"nextId":2,"records":[{"id":1,"title":"outside"}]}`)
	estatetest.WriteFile(t, outside, "spawn-log.json.lock", lockJSON(dead, hostname(), time.Now()))
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("open: exit %d, %q", r.code, r.stderr)
	}
	if err := os.Symlink(outside, filepath.Join(home, "agents", "evil")); err != nil {
		t.Fatal(err)
	}
	out := estatetest.Snapshot(t, outside)
	const leads = " leads out of the estate (a symbolic link to outside it?): refused; pa reads and writes nothing outside the estate"

	for _, args := range [][]string{{"dispatch", "list"}, {"dispatch", "list", "--json"}} {
		r := c.run(t, home, args...)
		if want := "pa: agents/evil/spawn-log.json" + leads + "\n"; r.code != 1 || r.stdout != "" || r.stderr != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1, no record and %q", args, r.code, r.stdout, r.stderr, want)
		}
	}

	line := "agents/evil/spawn-log.json.lock" + leads
	if r := c.run(t, home, "board", "check"); r.code != 2 || r.stdout != line+"\n" || r.stderr != "" {
		t.Errorf("board check: exit %d, stdout %q, stderr %q; want exit 2 and the problem %q", r.code, r.stdout, r.stderr, line)
	}
	r := c.run(t, home, "board", "check", "--json")
	var js struct {
		Problems []struct{ Kind, Agent, Path, Line string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != 2 || len(js.Problems) != 1 ||
		js.Problems[0].Kind != "outside-estate" || js.Problems[0].Agent != "evil" || js.Problems[0].Line != line {
		t.Errorf("board check --json: exit %d, stdout %q (%v); want exit 2 and one outside-estate problem", r.code, r.stdout, err)
	}
	r = c.run(t, home, "board", "check", "--hook-envelope")
	if want := `{"ok":false,"problems":["` + line + `"]}` + "\n"; r.code != 0 || r.stdout != want {
		t.Errorf("board check --hook-envelope: exit %d, stdout %q; want exit 0 and %q", r.code, r.stdout, want)
	}

	// unlock: demo's dead lock is removed, evil is refused.
	estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(dead, hostname(), time.Now()))
	r = c.run(t, home, "dispatch", "unlock")
	if !strings.HasSuffix(r.stdout, "agents/demo/spawn-log.json.lock: removed\n") || strings.Contains(r.stdout, "evil") {
		t.Errorf("unlock: stdout %q; want demo's lock removed and nothing of evil", r.stdout)
	}
	if want := "pa: " + line + "\n"; r.code != 2 || r.stderr != want {
		t.Errorf("unlock: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
	checkExit2(t, "evil", exit2{r.code, r.stderr}, "", "leads out of the estate")
	if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(demoLog+".lock"))); !os.IsNotExist(err) {
		t.Errorf("demo's dead lock: %v; want it removed", err)
	}
	r = c.run(t, home, "dispatch", "unlock")
	if r.code != 2 || r.stdout != "" || r.stderr != "pa: "+line+"\n" {
		t.Errorf("unlock with only evil's lock left: exit %d, stdout %q, stderr %q; want exit 2, no \"no spawn-log lock\" and the line", r.code, r.stdout, r.stderr)
	}
	if got := estatetest.Snapshot(t, outside); !maps.Equal(got, out) {
		t.Errorf("outside the estate changed:\nbefore %q\nafter  %q", out, got)
	}
}
