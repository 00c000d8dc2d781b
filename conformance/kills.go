package conformance

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// What a kill row sets up before the child runs.
const (
	setupFree     = "free"      // a committed record, no lock
	setupLeftover = "leftover"  // and a pending file of a dead owner
	setupDeadLock = "dead-lock" // and a lock of a dead holder
)

// brief is the lock timeout of a child that never has to wait (a free
// lock, or a dead holder's, broken at once): a child that waits anyway
// fails soon instead of after the shipped 10 s.
const brief = 2 * time.Second

// killRow is one kill row: the child (a write, or an unlock) kills itself
// with SIGKILL at step, leaving left (the kinds of name in the folder).
type killRow struct {
	step      lockspec.Step
	setup     string
	role      string
	left      []string
	committed bool // the child's record landed before the kill
}

// killAt proves a kill row: set up, run the child to its kill, check what
// is left, then the next write runs at once (no wait) and the folder holds
// only the spawn-log with every committed record.
func killAt(k killRow) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		s.mustWrite(t, "pre", fast(nil))
		var dead int
		var deadBytes []byte
		switch k.setup {
		case setupLeftover:
			dead = locktest.DeadPID(t)
			s.writeRaw(t, agentDir+"/"+leftoverPending(dead), lockJSON(dead, hostname(), true, token24, time.Now()))
		case setupDeadLock:
			dead = locktest.DeadPID(t)
			deadBytes = lockJSON(dead, hostname(), true, "deaddeaddeaddeaddeaddead", time.Now())
			s.writeRaw(t, lockName, deadBytes)
		}
		c := s.start(t, k.role, childSpec{Role: k.role, Title: "child", Timeout: brief, Kill: []lockspec.Step{k.step}})
		c.killedAt(t, k.step)

		owner := c.pid()
		if k.setup == setupLeftover {
			owner = dead // the judged leftover is still there
		}
		s.wantLeft(t, owner, k.left...)
		if s.exists(lockName) {
			held, err := locking.Inspect(s.fs, logName, fast(nil))
			wantPID := c.pid()
			if k.setup == setupDeadLock {
				wantPID = dead // the dead lock is still there, unbroken
			}
			if err != nil || held.State != locking.StateDead || held.PID != wantPID {
				t.Fatalf("the lock left: %+v, %v; want a dead holder, pid %d", held, err, wantPID)
			}
		}
		if moved := s.named(t, "broken"); k.setup == setupDeadLock && len(moved) == 1 && !bytes.Equal(s.readRaw(t, moved[0]), deadBytes) {
			t.Fatalf("the moved lock %s is not the dead lock", moved[0])
		}
		want := []string{"pre", "next"}
		if k.committed {
			want = append(want, "child")
		}
		nextWriteAtOnce(t, s, want...)
	}
}

// leftoverPending is the name of a pending file of a dead owner pid.
func leftoverPending(pid int) string {
	return logBase + ".lock.pending-" + lockspec.HostHash(hostname()) + "-" + strconv.Itoa(pid) + "-" + token24
}

// nextWriteAtOnce runs the next write with no wait: it goes through, and
// the folder holds only the spawn-log, with want, each once.
func nextWriteAtOnce(t *testing.T, s *site, want ...string) {
	t.Helper()
	if err := s.write("next", noWait(nil)); err != nil {
		t.Fatalf("the next write, at once: %v", err)
	}
	s.onlyLog(t)
	s.wantTitles(t, want...)
}

// emptyLockBlocks checks the block an empty lock makes: the next write
// fails at once naming the empty lock, and `pa dispatch unlock --force`
// clears it.
func emptyLockBlocks(t *testing.T, s *site) {
	t.Helper()
	if got := s.readRaw(t, lockName); len(got) != 0 {
		t.Fatalf("the lock holds %q; want it empty", got)
	}
	err := s.write("blocked", noWait(nil))
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != locking.StateUnreadable || te.Holder.Size != 0 {
		t.Fatalf("the next write: %v; want it blocked by the empty lock", err)
	}
	contains(t, err.Error(), lockName+" is an empty lock")
	neutral(t, err.Error())
	r := s.pa(t, "dispatch", "unlock", "--force", "--agent", agent)
	if r.code != 0 || !strings.Contains(r.stdout, "an empty lock (0 bytes") || !strings.HasSuffix(r.stdout, ": removed\n") {
		t.Fatalf("pa dispatch unlock --force: exit %d, stdout %q, stderr %q; want the empty lock printed, then removed", r.code, r.stdout, r.stderr)
	}
	if s.exists(lockName) {
		t.Fatal("unlock --force left the empty lock")
	}
}

// killOpened is R29: a write killed after the exclusive open of the lock.
// Without hard links, by the spec's exclusive create, an empty lock is
// left: a block until unlock --force clears it, and the write after goes
// through. With hard links there is no such step (the lock appears whole
// by link()): the write runs to its end, and a free lock is taken whole
// and released, nothing left. With the directory publish there is no such
// step either: the write killed at the publish's own window, after its
// record is staged and before the rename (acquire:staged), leaves only its
// staging directory, and the next write goes through at once and sweeps
// it.
func killOpened(t *testing.T, s *site) {
	s.mustWrite(t, "pre", fast(nil))
	if s.class == DirPublish {
		c := s.start(t, "writer", childSpec{Role: roleWrite, Title: "child", Timeout: brief, Kill: []lockspec.Step{lockspec.StepAcquireOpened, lockspec.StepAcquireStaged}})
		c.killedAt(t, lockspec.StepAcquireStaged)
		s.wantLeft(t, c.pid(), "spawn-log", "staged")
		nextWriteAtOnce(t, s, "pre", "next")
		return
	}
	c := s.start(t, "writer", childSpec{Role: roleWrite, Title: "child", Timeout: brief, Kill: []lockspec.Step{lockspec.StepAcquireOpened}})
	if s.class == Links {
		c.succeeded(t)
		s.onlyLog(t)
		nextWriteAtOnce(t, s, "pre", "child", "next")
		return
	}
	c.killedAt(t, lockspec.StepAcquireOpened)
	s.wantLeft(t, c.pid(), "spawn-log", "lock")
	emptyLockBlocks(t, s)
	nextWriteAtOnce(t, s, "pre", "next")
}

// forceUnlock is the operator's unlock --force of whatever lock holds the
// name (library).
func forceUnlock(t *testing.T, s *site) {
	t.Helper()
	held, err := locking.Inspect(s.fs, logName, fast(nil))
	if err != nil {
		t.Fatalf("Inspect before unlock --force: %v", err)
	}
	if err := locking.Unlock(context.Background(), s.fs, logName, held, true, fast(nil)); err != nil {
		t.Fatalf("unlock --force: %v", err)
	}
}

// putBackStep is the step a kill at step happens at on the site's class:
// with hard links there is no put-back-opened step (the put-back is a
// link()), so the child dies at the put-back itself.
func putBackStep(s *site, step lockspec.Step) lockspec.Step {
	if s.class != Links {
		return step
	}
	switch step {
	case lockspec.StepBreakPutBackOpened:
		return lockspec.StepBreakPutBack
	case lockspec.StepReleasePutBackOpened:
		return lockspec.StepReleasePutBack
	}
	return step
}

// killMovedNewer proves a kill row of a break or a release that moved a
// newer lock (R37-R39, R46-R48): the child (a breaker confirmed on a dead
// lock, or a holder just committed) pauses; the operator forces the lock
// out and a new holder (in this process) takes the lock and pauses after
// its read; the child goes on, moves the new lock and is killed at step.
// What is left is checked; then the next write runs at once (after unlock
// --force clears an empty lock, or after the new holder, whose lock was
// put back, ends), the new holder ends (fenced out and retried when its
// lock was lost), and every record survives once.
func killMovedNewer(release bool, step lockspec.Step) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		s.mustWrite(t, "pre", fast(nil))
		pause, title := lockspec.StepBreakConfirmed, "breaker"
		if release {
			pause, title = lockspec.StepCommitRenamed, "releaser"
		} else {
			s.writeRaw(t, lockName, lockJSON(locktest.DeadPID(t), hostname(), true, "deaddeaddeaddeaddeaddead", time.Now()))
		}
		at := putBackStep(s, step)
		c := s.start(t, title, childSpec{Role: roleWrite, Title: title, Timeout: brief, Pause: []stepAt{{Step: pause}}, Kill: []lockspec.Step{step, at}})
		c.paused(t, pause)
		forceUnlock(t, s)
		gate := newGate(lockspec.StepHoldRead)
		o := patient(nil)
		lockspec.SetOnStep(&o, gate.at)
		done := make(chan error, 1)
		go func() { done <- s.write("holder", o) }()
		gate.await(t, "the new holder", done)
		newer := s.readRaw(t, lockName)
		c.resume(t)
		putBack := at == lockspec.StepBreakPutBack || at == lockspec.StepReleasePutBack
		opened := at == lockspec.StepBreakPutBackOpened || at == lockspec.StepReleasePutBackOpened
		if s.class == DirPublish && opened {
			noPutBackOpened(t, s, c, release, newer, gate, done)
			return
		}
		c.killedAt(t, at)

		var left []string
		if !release {
			left = append(left, "claim")
		}
		moved := s.named(t, "broken")
		switch {
		case s.class == DirPublish && putBack:
			// A directory lock goes back by its rename: nothing is left
			// under the broken name.
			if len(moved) != 0 || !bytes.Equal(s.readRaw(t, lockName), newer) {
				t.Fatalf("the folder holds %q; want the new holder's lock renamed back whole", s.ls(t))
			}
		case len(moved) != 1 || !bytes.Equal(s.readRaw(t, moved[0]), newer):
			t.Fatalf("the folder holds %q; want the new holder's lock moved to the child's broken name", s.ls(t))
		}
		switch {
		case s.class == DirPublish && putBack:
			s.wantLeft(t, c.pid(), append(left, "spawn-log", "lock")...)
		case at == lockspec.StepBreakMismatch, at == lockspec.StepReleaseMismatch:
			s.wantLeft(t, c.pid(), append(left, "spawn-log", "broken")...) // the lock name is free
		case opened:
			s.wantLeft(t, c.pid(), append(left, "spawn-log", "broken", "lock")...)
			emptyLockBlocks(t, s)
		default: // put back: the new holder's lock is under the name again
			s.wantLeft(t, c.pid(), append(left, "spawn-log", "broken", "lock")...)
			if !bytes.Equal(s.readRaw(t, lockName), newer) {
				t.Fatal("the put-back lock is not the new holder's")
			}
		}
		want := []string{"pre", "holder", "next"}
		if release {
			want = append(want, "releaser")
		}
		if putBack {
			// The new holder still holds its lock: it ends first.
			gate.open()
			if err := <-done; err != nil {
				t.Fatalf("the new holder: %v", err)
			}
		}
		if err := s.write("next", noWait(nil)); err != nil {
			t.Fatalf("the next write, at once: %v", err)
		}
		if !putBack {
			gate.open()
			if err := <-done; err != nil {
				t.Fatalf("the new holder, fenced out: %v", err)
			}
		}
		s.onlyLog(t)
		s.wantTitles(t, want...)
	}
}

// noPutBackOpened is R38 and R47 on the class of the directory publish:
// the put-back is one rename, so there is no step between an exclusive
// open and its write to die at, and nothing blocks. The child (resumed,
// it moved the new holder's lock) runs on: it puts the lock back whole
// and ends, the breaker timing out on the new holder, the releaser with
// its record in. Nothing of the child's is left, the new holder ends, and
// the next write goes through at once.
func noPutBackOpened(t *testing.T, s *site, c *child, release bool, newer []byte, gate *stepGate, done chan error) {
	t.Helper()
	c.wait(t)
	for _, l := range c.said {
		if strings.HasPrefix(l, "kill ") {
			t.Fatalf("child %s said %q: a kill step the directory publish does not have", c.name, c.said)
		}
	}
	if n := len(c.said); n == 0 || !strings.HasPrefix(c.said[n-1], "done ") || release != (c.said[n-1] == "done ok") {
		t.Fatalf("child %s: ended %v having said %q; want it to end by itself (a releaser ok, a breaker timing out on the new holder)", c.name, c.state, c.said)
	}
	if !bytes.Equal(s.readRaw(t, lockName), newer) {
		t.Fatal("the new holder's lock is not back under the name whole")
	}
	s.wantLeft(t, c.pid(), "spawn-log", "lock")
	gate.open()
	if err := <-done; err != nil {
		t.Fatalf("the new holder: %v", err)
	}
	if err := s.write("next", noWait(nil)); err != nil {
		t.Fatalf("the next write, at once: %v", err)
	}
	want := []string{"pre", "holder", "next"}
	if release {
		want = append(want, "releaser")
	}
	s.onlyLog(t)
	s.wantTitles(t, want...)
}
