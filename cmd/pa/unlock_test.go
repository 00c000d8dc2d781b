package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

const forceWhen = "only once the holder's process is gone or stuck, never while it still runs"

// Row R18: unlock with no lock exits 0, says so and writes nothing.
func TestUnlockWithNoLock(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
			t.Fatalf("open: exit %d %q", r.code, r.stderr)
		}
		before := estatetest.Snapshot(t, home)
		for _, args := range [][]string{{"--agent", "demo"}, {}, {"--force", "--agent", "demo"}, {"--agent", "nobody"}} {
			r := c.run(t, home, append([]string{"dispatch", "unlock"}, args...)...)
			if r.code != 0 || !strings.Contains(r.stdout, "no lock") && !strings.Contains(r.stdout, "no spawn-log lock") || r.stderr != "" {
				t.Errorf("unlock %q: exit %d, stdout %q, stderr %q; want exit 0 saying there is no lock", args, r.code, r.stdout, r.stderr)
			}
			if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
				t.Errorf("unlock %q changed the estate: %q", args, after)
			}
		}
	})
}

// Row R19: a lock whose holder is provably dead is removed, unlock exits 0
// naming it, and the next open exits 0.
func TestUnlockADeadHolder(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		dead := locktest.DeadPID(t)
		estatetest.WriteFile(t, home, logName+".lock", lockJSON(dead, hostname(), time.Now()))
		r := c.run(t, home, "dispatch", "unlock", "--agent", "demo")
		want := fmt.Sprintf("agents/demo/spawn-log.json.lock: held by pid %d on host %q (dead, age ", dead, hostname())
		if r.code != 0 || !strings.HasPrefix(r.stdout, want) || !strings.HasSuffix(r.stdout, "agents/demo/spawn-log.json.lock: removed\n") {
			t.Fatalf("exit %d, stdout %q, stderr %q; want exit 0, the holder then removed", r.code, r.stdout, r.stderr)
		}
		if left := estatetest.Files(t, filepath.Join(home, "agents", "demo")); len(left) != 0 {
			t.Errorf("agent folder holds %q after unlock; want nothing", left)
		}
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"); r.code != 0 || r.stdout != "1\n" {
			t.Errorf("next open: exit %d, stdout %q, stderr %q; want exit 0 and id 1", r.code, r.stdout, r.stderr)
		}
	})
}

// Row R20: a live holder, a holder on another host, a reused pid (a live
// pid of this host that is not the holder's process) and an empty lock are
// refused: exit 2, the holder and --force named, the lock byte for byte.
// Row R21: --force prints the holder, then removes the lock.
func TestUnlockRefusesThenForceRemoves(t *testing.T) {
	live := locktest.LivePID(t)
	holders := []struct {
		name, lock, lead string
	}{
		{"live holder", lockJSON(live, hostname(), time.Now()), fmt.Sprintf("held by pid %d on host %q (alive, ", live, hostname())},
		{"another host", lockJSON(live, "elsewhere", time.Now()), fmt.Sprintf("held by pid %d on host \"elsewhere\" (on another host, ", live)},
		{"reused pid", lockJSON(os.Getpid(), hostname(), time.Now().Add(-time.Hour)), fmt.Sprintf("held by pid %d on host %q (alive, ", os.Getpid(), hostname())},
		{"empty lock", "", "is an empty lock (0 bytes, age "},
	}
	for _, h := range holders {
		t.Run(h.name, func(t *testing.T) {
			eachBinClass(t, func(t *testing.T, c binClass) {
				home := t.TempDir()
				estatetest.WriteFile(t, home, logName+".lock", h.lock)
				before := estatetest.Snapshot(t, home)

				// unlock prints "<lock>: held by pid ..." or "<lock>: an empty
				// lock (...)"; its error line "<lock> held by pid ..." or
				// "<lock> is an empty lock (...)".
				printed := strings.TrimPrefix(h.lead, "is ")
				r := c.run(t, home, "dispatch", "unlock", "--agent", "demo")
				if r.code != 2 || !strings.HasPrefix(r.stdout, "agents/demo/spawn-log.json.lock: "+printed) || strings.Count(r.stdout, "\n") != 1 {
					t.Errorf("exit %d, stdout %q; want exit 2 and the holder printed", r.code, r.stdout)
				}
				wantErr := "pa: agents/demo/spawn-log.json.lock " + h.lead
				if !strings.HasPrefix(r.stderr, wantErr) || strings.Count(r.stderr, "\n") != 1 ||
					!strings.Contains(r.stderr, ": not removed; clear it with "+board.Program(home)+" dispatch unlock --force --agent demo, "+forceWhen+"\n") {
					t.Errorf("stderr %q; want one line leading with %q and naming --force and when", r.stderr, wantErr)
				}
				if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
					t.Errorf("a refused unlock changed the estate: %q", after)
				}

				r = c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo")
				wantOut := "agents/demo/spawn-log.json.lock: " + printed
				if r.code != 0 || !strings.HasPrefix(r.stdout, wantOut) || !strings.HasSuffix(r.stdout, "\nagents/demo/spawn-log.json.lock: removed\n") || r.stderr != "" {
					t.Errorf("--force: exit %d, stdout %q, stderr %q; want exit 0, the holder then removed", r.code, r.stdout, r.stderr)
				}
				if left := estatetest.Files(t, filepath.Join(home, "agents", "demo")); len(left) != 0 {
					t.Errorf("agent folder holds %q after --force; want nothing", left)
				}
			})
		})
	}
}

// unlock without --agent acts on every agent of the estate: the dead
// holder is removed, the live one refused (exit 2).
func TestUnlockEveryAgent(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, "agents/a/spawn-log.json.lock", lockJSON(dead, hostname(), time.Now()))
		estatetest.WriteFile(t, home, "agents/b/spawn-log.json.lock", lockJSON(live, hostname(), time.Now()))
		estatetest.WriteFile(t, home, "agents/c/spawn-log.json", `{"version":1,"nextId":1,"records":[]}`)
		r := c.run(t, home, "dispatch", "unlock")
		if r.code != 2 || !strings.Contains(r.stdout, "agents/a/spawn-log.json.lock: removed\n") ||
			!strings.HasPrefix(r.stderr, "pa: agents/b/spawn-log.json.lock held by pid") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q; want a removed, b refused, exit 2", r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(home, "agents", "b", "spawn-log.json.lock")); err != nil {
			t.Errorf("b's lock: %v; want it left", err)
		}
	})
}

// A usage error exits 1 and touches nothing.
func TestUnlockUsageErrorTouchesNothing(t *testing.T) {
	live := locktest.LivePID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
		before := estatetest.Snapshot(t, home)
		for _, args := range [][]string{{"--agent", "../demo"}, {"--force", "--agent", "a/b"}, {"--force"}, {"--forse"}, {"--agent", "demo", "extra"}} {
			r := c.run(t, home, append([]string{"dispatch", "unlock"}, args...)...)
			if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") || r.stdout != "" {
				t.Errorf("unlock %q: exit %d, stdout %q, stderr %q; want exit 1, one pa: line", args, r.code, r.stdout, r.stderr)
			}
			if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
				t.Errorf("unlock %q changed the estate", args)
			}
		}
	})
}
