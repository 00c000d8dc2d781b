package main

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// An agent named that has no folder in the estate (a mistyped name) is bad
// input for list and board check (exit 1, one line saying so), not an agent
// with nothing to show; unlock exits 0 with no lock, as the spec's row says,
// and says that nothing is recorded for it. An agent folder with nothing in
// it yet is an agent: nothing listed, no problem.
func TestAnAgentWithNoFolderIsNamed(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("open: exit %d, %q", r.code, r.stderr)
	}
	estatetest.WriteFile(t, home, "agents/empty/.keep", "")
	before := estatetest.Snapshot(t, home)
	no := "no agent " + strconv.Quote("ghost") + " in the estate " + home + " (nothing recorded for it yet)"
	for _, args := range [][]string{
		{"dispatch", "list", "--agent", "ghost"},
		{"dispatch", "list", "--agent", "ghost", "--json"},
		{"board", "check", "--agent", "ghost"},
		{"board", "check", "--agent", "ghost", "--json"},
	} {
		if r := c.run(t, home, args...); r.code != exitUsage || r.stdout != "" || r.stderr != "pa: "+no+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", args, r.code, r.stdout, r.stderr, no)
		}
	}
	cmd := c.command(home, []string{"PA_AGENT=ghost"}, "board", "check")
	if r := runCmd(t, cmd); r.code != exitUsage || r.stderr != "pa: "+no+"\n" {
		t.Errorf("PA_AGENT=ghost board check: exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, no)
	}
	r := c.run(t, home, "board", "check", "--agent", "ghost", "--hook-envelope")
	if want := `{"ok":false,"problems":["pa: ` + strings.ReplaceAll(no, `"`, `\"`) + `"]}` + "\n"; r.code != exitOK || r.stdout != want {
		t.Errorf("board check --hook-envelope: exit %d, stdout %q; want exit 0 and %q", r.code, r.stdout, want)
	}
	r = c.run(t, home, "dispatch", "unlock", "--agent", "ghost")
	if want := "agents/ghost/spawn-log.json.lock: no lock; " + no + "\n"; r.code != exitOK || r.stdout != want || r.stderr != "" {
		t.Errorf("unlock --agent ghost: exit %d, stdout %q, stderr %q; want exit 0 and %q", r.code, r.stdout, r.stderr, want)
	}
	for _, args := range [][]string{{"dispatch", "list", "--agent", "empty"}, {"board", "check", "--agent", "empty"}} {
		if r := c.run(t, home, args...); r.code != exitOK || r.stdout != "" || r.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 0 and nothing", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := c.run(t, home, "dispatch", "unlock", "--agent", "empty"); r.code != exitOK || r.stdout != "agents/empty/spawn-log.json.lock: no lock\n" {
		t.Errorf("unlock --agent empty: exit %d, stdout %q; want exit 0 and no lock", r.code, r.stdout)
	}
	if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
		t.Errorf("the estate changed: %q", after)
	}
}
