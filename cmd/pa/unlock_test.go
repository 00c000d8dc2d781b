package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

const forceWhen = "only once the holder's process is gone or stuck, never while it still runs"

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

// aliveLine is the line of unlock --force, between the holder and
// "removed", over a holder that holds the lock's kernel lock.
const aliveLine = demoLog + ".lock: its holder is alive for certain: it holds the lock's kernel lock (a stopped process holds it too); " +
	"removing the lock all the same, as asked: if it still runs, it can lose a record\n"

// removedLine is unlock's line once it removed the lock, whatever the
// holder.
const removedLine = demoLog + ".lock: removed\n"

// heldBy is the start of unlock's first line for the demo agent's lock held
// by pid on this host, in state (with its evidence).
func heldBy(pid int, state string) string {
	return fmt.Sprintf("%s.lock: held by pid %d on host \"%s\" (%s, age ", demoLog, pid, hostname(), state)
}

// splitLines is out's lines, each with its newline (a last line without
// one is a line too).
func splitLines(out string) []string {
	lines := strings.SplitAfter(out, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// unlock --force over a real holder of this host, which holds the lock's
// kernel lock: the lock is removed (a stopped process holds its kernel lock
// too: --force is the operator's decision), the holder line says which
// evidence decided, and the line after it says plainly that the holder is
// alive for certain, before the same "removed" as for any holder. Over a
// lock of the spec's four fields whose pid lives, the lines are byte for
// byte as before: the holder "(alive, age ...)", then "removed".
func TestUnlockForceSaysAKernelLockHolderIsAliveForCertain(t *testing.T) {
	live := locktest.LivePID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, demoLog, emptyLog)
		h := startHolder(t, home, false)
		r := c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo")
		lines := splitLines(r.stdout)
		if r.code != 0 || r.stderr != "" || len(lines) != 3 || !strings.HasPrefix(lines[0], heldBy(h.pid(), "alive: holds the lock's kernel lock")) ||
			lines[1] != aliveLine || lines[2] != removedLine {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, %q..., then %q and %q", r.code, r.stdout, r.stderr,
				heldBy(h.pid(), "alive: holds the lock's kernel lock"), aliveLine, removedLine)
		}
		if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(demoLog+".lock"))); !os.IsNotExist(err) {
			t.Errorf("the lock after unlock --force: %v; want it removed", err)
		}

		at := time.Now().Add(-time.Hour)
		estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(live, hostname(), at))
		r = c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo")
		want := heldBy(live, "alive")
		end := ", acquiredAt " + at.UTC().Format("2006-01-02T15:04:05.000Z") + ")\n" + removedLine
		if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, want) || !strings.HasSuffix(r.stdout, end) || strings.Count(r.stdout, "\n") != 2 {
			t.Errorf("four fields: exit %d, stdout %q, stderr %q; want exit 0 and %q...%q", r.code, r.stdout, r.stderr, want, end)
		}
	})
}

// A real holder in another pid namespace of this host (unshare -p: the
// same hostname and boot; its pid there, 1, is another process here):
//   - holding the lock's kernel lock, it is alive whatever its pid: unlock
//     refuses it (exit 2) saying so, "alive in another pid namespace of
//     this host: holds the lock's kernel lock", and names --force with
//     when; unlock --force says it is alive for certain, and removes it;
//   - with a lock that claims no kernel lock (a volume without them), only
//     its identity judges it: "in another pid namespace of this host", not
//     provably dead, refused as a holder of another host is, and unlock
//     --force removes it without the alive-for-certain line (nothing
//     proves it alive);
//   - once it died (its kernel lock gone with it), unlock without --force
//     removes its lock, saying which evidence decided.
func TestUnlockHolderInAnotherPIDNamespace(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		lock := demoLog + ".lock"
		refused := func(t *testing.T, home, state string) {
			t.Helper()
			before := readFile(t, home, lock)
			r := c.run(t, home, "dispatch", "unlock", "--agent", "demo")
			lead := "pa: " + lock + " held by pid 1 on host \"" + hostname() + "\" (" + state + ", age "
			clear := "): not removed; clear it with pa --home " + home + " dispatch unlock --force --agent demo, " + forceWhen + "\n"
			if r.code != 2 || !strings.HasPrefix(r.stdout, heldBy(1, state)) || strings.Count(r.stdout, "\n") != 1 ||
				!strings.HasPrefix(r.stderr, lead) || !strings.HasSuffix(r.stderr, clear) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("unlock: exit %d, stdout %q, stderr %q; want exit 2, %q..., and %q...%q", r.code, r.stdout, r.stderr, heldBy(1, state), lead, clear)
			}
			if readFile(t, home, lock) != before {
				t.Error("unlock changed the lock")
			}
		}

		t.Run("kernel lock held", func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, demoLog, emptyLog)
			startHolder(t, home, true)
			const state = "alive in another pid namespace of this host: holds the lock's kernel lock"
			refused(t, home, state)
			r := c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo")
			if lines := splitLines(r.stdout); r.code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], heldBy(1, state)) || lines[1] != aliveLine || lines[2] != removedLine {
				t.Errorf("--force: exit %d, stdout %q, stderr %q; want exit 0, %q..., then %q and %q", r.code, r.stdout, r.stderr, heldBy(1, state), aliveLine, removedLine)
			}
		})

		t.Run("no kernel lock claimed", func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, demoLog, emptyLog)
			startHolder(t, home, true)
			dropKernelClaim(t, home)
			const state = "in another pid namespace of this host"
			refused(t, home, state)
			r := c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo")
			if lines := splitLines(r.stdout); r.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], heldBy(1, state)) || lines[1] != removedLine {
				t.Errorf("--force: exit %d, stdout %q, stderr %q; want exit 0, %q..., then removed", r.code, r.stdout, r.stderr, heldBy(1, state))
			}
		})

		t.Run("died", func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, demoLog, emptyLog)
			startHolder(t, home, true).die(t)
			const state = "dead: in another pid namespace of this host, and no process holds the lock's kernel lock"
			r := c.run(t, home, "dispatch", "unlock", "--agent", "demo")
			if lines := splitLines(r.stdout); r.code != 0 || r.stderr != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], heldBy(1, state)) || lines[1] != removedLine {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, %q..., then removed", r.code, r.stdout, r.stderr, heldBy(1, state))
			}
		})
	})
}
