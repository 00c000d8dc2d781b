package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

const logName = "agents/demo/spawn-log.json"

func openArgs(i int) []string {
	return []string{"dispatch", "open", "--agent", "demo", "--title", fmt.Sprintf("p%d", i), "--wait", "20s"}
}

// Row R12: eight `pa dispatch open` processes at once against a lock left
// by a dead process, 25 trials, on both classes: every exit 0, distinct
// ids, every record and board item present, nothing left beside the
// spawn-log and the board.
func TestOpenEightAtOnceAgainstADeadLock(t *testing.T) {
	const trials, writers = 25, 8
	eachBinClass(t, func(t *testing.T, c binClass) {
		for trial := range trials {
			home := t.TempDir()
			estatetest.WriteFile(t, home, logName+".lock", lockJSON(locktest.DeadPID(t), hostname(), time.Now()))
			got := ids(t, c.runMany(t, writers, home, openArgs))
			if !slices.Equal(got, seq(1, writers)) {
				t.Fatalf("trial %d: ids %v; want 1..%d, each once", trial, got, writers)
			}
			checkEstate(t, home, "demo", seq(1, writers))
			if t.Failed() {
				t.Fatalf("trial %d failed", trial)
			}
		}
	})
}

// Row R13 through the binary: link() failing with EPERM, EOPNOTSUPP or
// ENOTSUP falls back: two opens in a row, eight at once, then eight against
// a stale lock; every exit 0, nothing lost, nothing left.
func TestOpenWithLinkRefused(t *testing.T) {
	for _, errno := range []string{"EPERM", "EOPNOTSUPP", "ENOTSUP"} {
		t.Run(errno, func(t *testing.T) {
			c := binClass{name: errno, bin: func() string { return paFaultBin }, errno: errno}
			home := t.TempDir()
			var rs []result
			for i := range 2 {
				rs = append(rs, c.run(t, home, openArgs(i)...))
			}
			if got := ids(t, rs); !slices.Equal(got, []int{1, 2}) {
				t.Fatalf("two in a row: ids %v; want 1, 2", got)
			}
			if got := ids(t, c.runMany(t, 8, home, openArgs)); !slices.Equal(got, seq(3, 10)) {
				t.Fatalf("eight at once: ids %v; want 3..10", got)
			}
			checkEstate(t, home, "demo", seq(1, 10))
			estatetest.WriteFile(t, home, logName+".lock", lockJSON(locktest.DeadPID(t), hostname(), time.Now()))
			if got := ids(t, c.runMany(t, 8, home, openArgs)); !slices.Equal(got, seq(11, 18)) {
				t.Fatalf("eight against a stale lock: ids %v; want 11..18", got)
			}
			checkEstate(t, home, "demo", seq(1, 18))
		})
	}
}

// The acceptance check: a lock held by a live process makes
// `pa dispatch open --wait 1s` exit 2 within about a second, with one line
// naming the holder's pid and pa dispatch unlock, and nothing changes. With
// a 240-character agent the lock path is capped and the command keeps the
// whole agent.
func TestOpenAgainstALiveHolderTimesOut(t *testing.T) {
	live := locktest.LivePID(t)
	long := strings.Repeat("q", 240)
	for _, agent := range []string{"demo", long} {
		eachBinClass(t, func(t *testing.T, c binClass) {
			home := t.TempDir()
			if r := c.run(t, home, "dispatch", "open", "--agent", agent); r.code != 0 {
				t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
			}
			name := "agents/" + agent + "/spawn-log.json"
			estatetest.WriteFile(t, home, name+".lock", lockJSON(live, hostname(), time.Now()))
			before := estatetest.Snapshot(t, home)

			r := c.run(t, home, "dispatch", "open", "--agent", agent, "--wait", "1s")
			if r.code != 2 {
				t.Fatalf("exit %d; want 2 (stderr %q)", r.code, r.stderr)
			}
			if r.took < time.Second || r.took > 4*time.Second {
				t.Errorf("took %s; want about a second", r.took)
			}
			if r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stdout %q, stderr %q; want one line on stderr only", r.stdout, r.stderr)
			}
			capped := agent
			if len(agent) > 32 {
				capped = agent[:29] + "..."
			}
			lead := fmt.Sprintf("pa: agents/%s/spawn-log.json.lock held by pid %d on host ", capped, live)
			if !strings.HasPrefix(r.stderr, lead) {
				t.Errorf("line %q; want it to lead with %q", r.stderr, lead)
			}
			for _, want := range []string{"(alive, age ", "): gave up after 1s; ", board.Program(home) + " dispatch unlock --force --agent " + agent + ",", "only once the holder's process is gone or stuck, never while it still runs"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("line %q; want %q in it", r.stderr, want)
				}
			}
			if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
				t.Errorf("the estate changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// --wait 0 fails at once when the lock is held.
func TestOpenWaitZeroFailsAtOnce(t *testing.T) {
	live := locktest.LivePID(t)
	home := t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
	r := binClasses[0].run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
	if r.code != 2 || r.took > 2*time.Second || !strings.Contains(r.stderr, fmt.Sprintf("pid %d", live)) {
		t.Errorf("exit %d after %s, stderr %q; want exit 2 at once naming pid %d", r.code, r.took, r.stderr, live)
	}
}

// A bad agent name is a usage error (exit 1) that touches nothing; so are
// a kong parse error and a bad --wait.
func TestOpenUsageErrorsTouchNothing(t *testing.T) {
	cases := [][]string{
		{"dispatch", "open", "--agent", "../x"},
		{"dispatch", "open", "--agent", "a/b"},
		{"dispatch", "open", "--agent", ".hidden"},
		{"dispatch", "open", "--agent", ""},
		{"dispatch", "open", "--agent", strings.Repeat("x", 300)},
		{"dispatch", "open", "--agent", "a\x01b"},
		{"dispatch", "open"},
		{"dispatch", "open", "--agent", "demo", "--wait", "soon"},
		{"dispatch", "open", "--agent", "demo", "--wait", "-1s"},
		{"dispatch", "opne", "--agent", "demo"},
		{"dispatch", "list", "--agent", "../x"},
		{"board", "check", "--agent", "a/b"},
	}
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := filepath.Join(t.TempDir(), "estate")
		if err := os.Mkdir(home, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, args := range cases {
			r := c.run(t, home, args...)
			if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "goroutine") {
				t.Errorf("%.60q: exit %d, stderr %q; want exit 1 and one line prefixed pa:", args, r.code, r.stderr)
			}
			if got := estatetest.Files(t, home); len(got) != 0 {
				t.Fatalf("%.60q: the estate holds %q; want nothing", args, got)
			}
		}
	})
}
