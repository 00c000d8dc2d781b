package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/board"
)

// fault runs the pafault build of class c with PA_FAULT_STEP=step.
func (c binClass) fault(t *testing.T, home, step string, args ...string) result {
	t.Helper()
	faulty := binClass{name: c.name, bin: func() string { return paFaultBin }, errno: c.errno}
	return runCmd(t, faulty.command(home, []string{"PA_FAULT_STEP=" + step}, args...))
}

// Kill after the commit rename, before release (row R43), through the
// real binary: the record is in the spawn-log, the next open clears the
// dead holder's lock at once (--wait 0) and exits 0, nothing is lost, and
// board check names the killed dispatch, which never reached its board.
func TestOpenKilledAfterTheCommit(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		r := c.fault(t, home, "commit:renamed", "dispatch", "open", "--agent", "demo")
		if r.code == 0 || r.stdout != "" {
			t.Fatalf("the faulted open: exit %d, stdout %q; want it killed before printing", r.code, r.stdout)
		}
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"); r.code != 0 || r.stdout != "2\n" {
			t.Fatalf("the next open: exit %d, stdout %q, stderr %q; want exit 0 at once and id 2", r.code, r.stdout, r.stderr)
		}
		r = c.run(t, home, "dispatch", "list", "--agent", "demo", "--json")
		var recs []struct{ ID int }
		if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) != 2 || recs[0].ID != 1 || recs[1].ID != 2 {
			t.Errorf("list: %q (%v); want records 1 and 2", r.stdout, err)
		}
		r = c.run(t, home, "board", "check", "--agent", "demo")
		if r.code != 2 || r.stdout != "dispatch 1 is in agents/demo/spawn-log.json but not on the board agents/demo/board/board.json\n" {
			t.Errorf("board check: exit %d, stdout %q; want dispatch 1 named as not on the board", r.code, r.stdout)
		}
	})
}

// Kill in acquire after the exclusive open (row R29), through the real
// binary: on the class without hard links the empty lock left blocks the
// next open (exit 2 naming the empty lock and --force) until unlock --force
// clears it; with hard links the step does not exist and the open succeeds.
// This also proves that PA_FAULT_LINK_ERRNO puts the pafault build on the
// other class.
func TestOpenKilledAfterTheExclusiveOpen(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		r := c.fault(t, home, "acquire:opened", "dispatch", "open", "--agent", "demo")
		if c.errno == "" {
			if r.code != 0 || r.stdout != "1\n" {
				t.Fatalf("with hard links: exit %d, stdout %q, stderr %q; want exit 0 (no such step)", r.code, r.stdout, r.stderr)
			}
			return
		}
		if r.code == 0 {
			t.Fatalf("without hard links: exit 0; want the process killed at acquire:opened")
		}
		r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
		if r.code != 2 || !strings.HasPrefix(r.stderr, "pa: agents/demo/spawn-log.json.lock is an empty lock (0 bytes, age ") ||
			!strings.Contains(r.stderr, board.Program(home)+" dispatch unlock --force --agent demo") {
			t.Fatalf("the next open: exit %d, stderr %q; want exit 2 naming the empty lock and --force", r.code, r.stderr)
		}
		if r := c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo"); r.code != 0 {
			t.Fatalf("unlock --force: exit %d, %q", r.code, r.stderr)
		}
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"); r.code != 0 || r.stdout != "1\n" {
			t.Errorf("open after unlock --force: exit %d, stdout %q, stderr %q; want id 1", r.code, r.stdout, r.stderr)
		}
		checkEstate(t, home, "demo", []int{1})
	})
}

// The shipped build has no fault injection: it ignores PA_FAULT_* and runs
// on the real OS. The pafault build refuses an unknown errno or step.
func TestFaultInjectionOnlyInThePafaultBuild(t *testing.T) {
	home := t.TempDir()
	shipped := binClasses[0]
	r := runCmd(t, shipped.command(home, []string{"PA_FAULT_LINK_ERRNO=bogus", "PA_FAULT_STEP=commit:renamed"}, "dispatch", "open", "--agent", "demo"))
	if r.code != 0 || r.stdout != "1\n" {
		t.Errorf("shipped build with PA_FAULT_*: exit %d, stdout %q, stderr %q; want it ignored", r.code, r.stdout, r.stderr)
	}
	for _, env := range []string{"PA_FAULT_LINK_ERRNO=EXDEV", "PA_FAULT_STEP=commit:nowhere"} {
		faulty := binClass{bin: func() string { return paFaultBin }}
		r := runCmd(t, faulty.command(home, []string{env}, "dispatch", "open", "--agent", "demo"))
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") {
			t.Errorf("pafault build with %s: exit %d, stderr %q; want exit 1", env, r.code, r.stderr)
		}
	}
}

// Every command's --help says what it does, its exit codes and an example;
// pa --version and pa version print the version; pa help [COMMAND] prints
// the same as --help. All exit 0.
func TestHelpAndVersion(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	for _, cmd := range [][]string{{"dispatch", "open"}, {"dispatch", "list"}, {"dispatch", "unlock"}, {"board", "check"}} {
		r := c.run(t, home, append(cmd, "--help")...)
		if r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") || !strings.Contains(r.stdout, "Example:") ||
			!strings.Contains(r.stdout, "pa "+strings.Join(cmd, " ")) {
			t.Errorf("%s --help: exit %d, stdout %q; want exit 0 with exit codes and an example", cmd, r.code, r.stdout)
		}
	}
	if r := c.run(t, home, "--help"); r.code != 0 || !strings.Contains(r.stdout, "Exit codes:") {
		t.Errorf("pa --help: exit %d, stdout %q", r.code, r.stdout)
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if r := c.run(t, home, args...); r.code != 0 || r.stdout != fmt.Sprintf("pa %s\n", version) {
			t.Errorf("pa %s: exit %d, stdout %q; want pa %s", args[0], r.code, r.stdout, version)
		}
	}
	// pa help [COMMAND...] is pa [COMMAND...] --help.
	for _, cmd := range [][]string{{}, {"dispatch"}, {"dispatch", "open"}, {"board", "check"}} {
		want := c.run(t, home, append(cmd, "--help")...)
		if r := c.run(t, home, append([]string{"help"}, cmd...)...); r.code != 0 || r.stdout != want.stdout || r.stdout == "" {
			t.Errorf("pa help %s: exit %d, stdout %q; want the same as --help: %q", cmd, r.code, r.stdout, want.stdout)
		}
	}
	if r := c.run(t, home, "help", "nope"); r.code != 1 || !strings.HasPrefix(r.stderr, "pa: help nope: ") {
		t.Errorf("pa help nope: exit %d, stderr %q; want exit 1", r.code, r.stderr)
	}
	// The groups say what they are about, beyond their one-line summary.
	for group, want := range map[string]string{"dispatch": "A dispatch is one record in agents/<agent>/spawn-log.json", "board": "Each agent's board, agents/<agent>/board/board.json"} {
		if r := c.run(t, home, group, "--help"); r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("pa %s --help: exit %d, stdout %q; want %q in it", group, r.code, r.stdout, want)
		}
	}
}
