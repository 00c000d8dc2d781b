package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

const forceWhen = "only once the holder's process is gone or stuck, never while it still runs"

// R18: with no lock, Inspect says so, and `pa dispatch unlock` (with or
// without --agent or --force) exits 0 saying so and writes nothing.
func unlockNoLock(t *testing.T, s *site) {
	if _, err := locking.Inspect(s.fs, logName, fast(s.me())); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Inspect: %v; want fs.ErrNotExist", err)
	}
	if r := s.pa(t, "dispatch", "open", "--agent", agent); r.code != 0 {
		t.Fatalf("open: exit %d %q", r.code, r.stderr)
	}
	before := estatetest.Snapshot(t, s.root)
	for _, args := range [][]string{{"--agent", agent}, {}, {"--force", "--agent", agent}, {"--agent", "nobody"}} {
		r := s.pa(t, append([]string{"dispatch", "unlock"}, args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "no lock") && !strings.Contains(r.stdout, "no spawn-log lock") || r.stderr != "" {
			t.Errorf("unlock %q: exit %d, stdout %q, stderr %q; want exit 0 saying there is no lock", args, r.code, r.stdout, r.stderr)
		}
		if after := estatetest.Snapshot(t, s.root); !maps.Equal(before, after) {
			t.Errorf("unlock %q changed the estate: %q", args, after)
		}
	}
}

// R18: a usage error of `pa dispatch unlock` exits 1 with one pa: line
// and touches nothing, even with a lock in place.
func unlockUsageErrorTouchesNothing(t *testing.T, s *site) {
	s.writeRaw(t, lockName, lockJSON(s.livePID(t), s.hostname(), true, strings.Repeat("5a", 12), time.Now()))
	before := estatetest.Snapshot(t, s.root)
	for _, args := range [][]string{{"--agent", "../demo"}, {"--force", "--agent", "a/b"}, {"--force"}, {"--forse"}, {"--agent", agent, "extra"}} {
		r := s.pa(t, append([]string{"dispatch", "unlock"}, args...)...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") || r.stdout != "" {
			t.Errorf("unlock %q: exit %d, stdout %q, stderr %q; want exit 1, one pa: line", args, r.code, r.stdout, r.stderr)
		}
		if after := estatetest.Snapshot(t, s.root); !maps.Equal(before, after) {
			t.Errorf("unlock %q changed the estate", args)
		}
	}
}

// R19: a lock whose holder is provably dead is removed by the break's
// steps, and nothing else is left.
func unlockDeadHolderSteps(t *testing.T, s *site) {
	pid := s.deadPID(t)
	s.writeRaw(t, lockName, lockJSON(pid, s.hostname(), true, "deaddeaddeaddeaddeaddead", time.Now()))
	held, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil || held.State != locking.StateDead || held.PID != pid {
		t.Fatalf("Inspect = %+v, %v", held, err)
	}
	var steps []lockspec.Step
	o := fast(s.me())
	lockspec.SetOnStep(&o, func(st lockspec.Step) { steps = append(steps, st) })
	if err := locking.Unlock(context.Background(), s.fs, logName, held, false, o); err != nil {
		t.Fatal(err)
	}
	s.empty(t)
	want := []lockspec.Step{lockspec.StepBreakJudged, lockspec.StepBreakClaimed, lockspec.StepBreakConfirmed, lockspec.StepBreakRenamed, lockspec.StepBreakRemoved}
	if !equalSteps(steps, want) {
		t.Fatalf("steps %v; want %v", steps, want)
	}
}

// R19 through the binary: unlock exits 0 naming the dead holder, then
// "removed"; the folder is empty and the next open exits 0.
func paUnlockDeadHolder(t *testing.T, s *site) {
	dead := s.deadPID(t)
	s.writeRaw(t, lockName, lockJSON(dead, s.hostname(), true, strings.Repeat("5a", 12), time.Now()))
	r := s.pa(t, "dispatch", "unlock", "--agent", agent)
	want := fmt.Sprintf("agents/demo/spawn-log.json.lock: held by pid %d on host %q (dead, age ", dead, s.hostname())
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) || !strings.HasSuffix(r.stdout, "agents/demo/spawn-log.json.lock: removed\n") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 0, the holder then removed", r.code, r.stdout, r.stderr)
	}
	s.empty(t)
	if r := s.pa(t, "dispatch", "open", "--agent", agent, "--wait", "0"); r.code != 0 || r.stdout != "1\n" {
		t.Errorf("the next open: exit %d, stdout %q, stderr %q; want exit 0 and id 1", r.code, r.stdout, r.stderr)
	}
}

// heldLocks are the locks unlock refuses without --force (R20) and removes
// with it (R21): their content and how unlock's lines describe them.
func heldLocks(t *testing.T, s *site) []struct{ name, lock, lead string } {
	live := s.livePID(t)
	return []struct{ name, lock, lead string }{
		{"live-holder", string(lockJSON(live, s.hostname(), true, strings.Repeat("5a", 12), time.Now())), fmt.Sprintf("held by pid %d on host %q (alive, ", live, s.hostname())},
		{"another-host", string(lockJSON(live, "elsewhere", true, strings.Repeat("5a", 12), time.Now())), fmt.Sprintf("held by pid %d on host \"elsewhere\" (on another host, ", live)},
		{"reused-pid", string(lockJSON(s.myPID(), s.hostname(), true, strings.Repeat("5a", 12), time.Now().Add(-time.Hour))), fmt.Sprintf("held by pid %d on host %q (alive, ", s.myPID(), s.hostname())},
		{"empty-lock", "", "is an empty lock (0 bytes, age "},
	}
}

// R20: a live holder, a holder on another host and a reused pid are
// refused, by the library (a *RefusedError, the lock byte for byte) and by
// `pa dispatch unlock` (exit 2, the holder printed, one line naming the
// holder and --force with when to use it, the estate unchanged).
func unlockRefuses(t *testing.T, s *site) {
	for _, h := range heldLocks(t, s)[:3] {
		t.Run(h.name, func(t *testing.T) {
			s.reset(t)
			s.writeRaw(t, lockName, []byte(h.lock))
			held, err := locking.Inspect(s.fs, logName, fast(s.me()))
			if err != nil {
				t.Fatal(err)
			}
			err = locking.Unlock(context.Background(), s.fs, logName, held, false, fast(s.me()))
			var re *locking.RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Unlock: %v; want a *RefusedError", err)
			}
			contains(t, err.Error(), lockName, "not removed")
			neutral(t, err.Error())

			before := estatetest.Snapshot(t, s.root)
			printed := strings.TrimPrefix(h.lead, "is ")
			r := s.pa(t, "dispatch", "unlock", "--agent", agent)
			if r.code != 2 || !strings.HasPrefix(r.stdout, "agents/demo/spawn-log.json.lock: "+printed) || strings.Count(r.stdout, "\n") != 1 {
				t.Errorf("exit %d, stdout %q; want exit 2 and the holder printed", r.code, r.stdout)
			}
			wantErr := "pa: agents/demo/spawn-log.json.lock " + h.lead
			if !strings.HasPrefix(r.stderr, wantErr) || strings.Count(r.stderr, "\n") != 1 ||
				!strings.Contains(r.stderr, ": not removed; clear it with "+paAt(s.root)+" dispatch unlock --force --agent demo, "+forceWhen+"\n") {
				t.Errorf("stderr %q; want one line leading with %q and naming --force and when", r.stderr, wantErr)
			}
			if after := estatetest.Snapshot(t, s.root); !maps.Equal(before, after) {
				t.Errorf("a refused unlock changed the estate: %q", after)
			}
		})
	}
}

// R21 through the binary: --force prints the holder (live, on another
// host, a reused pid, an empty lock), then removes the lock: exit 0.
func paForceRemoves(t *testing.T, s *site) {
	for _, h := range heldLocks(t, s) {
		t.Run(h.name, func(t *testing.T) {
			s.reset(t)
			s.writeRaw(t, lockName, []byte(h.lock))
			r := s.pa(t, "dispatch", "unlock", "--force", "--agent", agent)
			wantOut := "agents/demo/spawn-log.json.lock: " + strings.TrimPrefix(h.lead, "is ")
			if r.code != 0 || !strings.HasPrefix(r.stdout, wantOut) || !strings.HasSuffix(r.stdout, "\nagents/demo/spawn-log.json.lock: removed\n") || r.stderr != "" {
				t.Errorf("--force: exit %d, stdout %q, stderr %q; want exit 0, the holder then removed", r.code, r.stdout, r.stderr)
			}
			s.empty(t)
		})
	}
}

// R21, R22: a real holder stalled after its read, whose lock `pa dispatch
// unlock --force` removes while it holds, is fenced out: it commits
// nothing, runs its read-modify-write again under a fresh lock and commits
// after a contender; both records survive.
func forcedHolderFencedOut(t *testing.T, s *site) {
	h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Report: true, Pause: []stepAt{{Step: lockspec.StepHoldRead}}})
	h.paused(t, lockspec.StepHoldRead)
	held, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil || held.State != locking.StateAlive || held.PID != h.pid() {
		t.Fatalf("Inspect = %+v, %v; want the live holder (pid %d)", held, err, h.pid())
	}
	if r := s.pa(t, "dispatch", "unlock", "--agent", agent); r.code != 2 {
		t.Fatalf("unlock without --force of a live holder: exit %d, %q; want 2", r.code, r.stderr)
	}
	r := s.pa(t, "dispatch", "unlock", "--force", "--agent", agent)
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("held by pid %d ", h.pid())) || !strings.HasSuffix(r.stdout, ": removed\n") {
		t.Fatalf("unlock --force: exit %d, stdout %q, stderr %q; want the holder printed, then removed", r.code, r.stdout, r.stderr)
	}
	s.mustWrite(t, "contender", noWait(s.me()))
	h.resume(t)
	h.succeeded(t)
	s.wantTitles(t, "contender", "holder")
	s.before(t, "contender", "holder")
	fencedOutOnce(t, h)
	s.onlyLog(t)
}

// fencedOutOnce fails unless the child (Report) was refused at its fence
// once, then read again under a fresh lock and committed: its steps show a
// temp file written with no fence passed before its second read, then
// one commit.
func fencedOutOnce(t *testing.T, c *child) {
	t.Helper()
	steps := c.steps()
	reads, fenced, renamed := 0, 0, 0
	refused := false
	for i, st := range steps {
		switch st {
		case lockspec.StepHoldRead:
			reads++
		case lockspec.StepCommitFenced:
			fenced++
		case lockspec.StepCommitRenamed:
			renamed++
		case lockspec.StepCommitTempWritten:
			if reads == 1 && (i+1 >= len(steps) || steps[i+1] != lockspec.StepCommitFenced) {
				refused = true
			}
		}
	}
	if reads != 2 || fenced != 1 || renamed != 1 || !refused {
		t.Fatalf("%s's steps %v; want it refused at its fence once, then a fresh read and one commit", c.name, steps)
	}
}

// R21: unlock removes only the lock it judged: a lock replaced since it
// was read is left alone, with or without --force.
func unlockChangedRemovesNothing(t *testing.T, s *site) {
	for _, force := range []bool{false, true} {
		dead := s.deadPID(t)
		s.writeRaw(t, lockName, lockJSON(dead, s.hostname(), true, "deaddeaddeaddeaddeaddead", time.Now()))
		held, err := locking.Inspect(s.fs, logName, fast(s.me()))
		if err != nil {
			t.Fatal(err)
		}
		fresh := lockJSON(dead, s.hostname(), true, "feedfeedfeedfeedfeedfeed", time.Now())
		s.writeRaw(t, lockName, fresh)
		err = locking.Unlock(context.Background(), s.fs, logName, held, force, fast(s.me()))
		if !errors.Is(err, locking.ErrLockChanged) {
			t.Fatalf("force=%v: err = %v; want ErrLockChanged", force, err)
		}
		if !bytes.Equal(s.readRaw(t, lockName), fresh) {
			t.Fatalf("force=%v: the changed lock was touched", force)
		}
		if got := s.ls(t); len(got) != 1 {
			t.Fatalf("the folder holds %q", got)
		}
	}
}

// R21: unlock --force does not stop for another breaker's live claim.
func forceIgnoresLiveClaims(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	fakeDeadLock(t, s, m)
	gate := newGate(lockspec.StepBreakClaimed)
	o := fast(m.Spawn())
	lockspec.SetOnStep(&o, gate.at)
	done := make(chan error, 1)
	go func() {
		h, err := locking.Acquire(context.Background(), s.fs, logName, o)
		if err == nil {
			err = h.Release()
		}
		done <- err
	}()
	gate.await(t, "the breaker", done)
	operator := fast(m.Spawn())
	held, err := locking.Inspect(s.fs, logName, operator)
	if err != nil {
		t.Fatal(err)
	}
	err = locking.Unlock(context.Background(), s.fs, logName, held, true, operator)
	gate.open()
	<-done
	if err != nil {
		t.Fatalf("--force with a live claim on the lock: %v", err)
	}
}
