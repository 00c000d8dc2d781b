package locking_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// R21 and R22: a holder whose lock is removed by unlock --force while it
// holds (stalled after its read) is fenced out, commits nothing, retries
// under a fresh lock, and both records survive.
func TestForcedHolderFencedOutRetries(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		holder, contender := m.Spawn(), m.Spawn()
		gate := newGate(locking.StepHoldRead)
		var committed []locking.Step
		opts := fast(holder)
		opts.Timeout = 10 * time.Second
		opts.OnStep = func(s locking.Step) {
			if s == locking.StepCommitFenced || s == locking.StepCommitRenamed {
				committed = append(committed, s)
			}
			gate.at(s)
		}
		done := make(chan error)
		go func() { done <- locking.Update(context.Background(), e.fsys, target, appendRecord("holder"), opts) }()
		<-gate.reached

		// The operator forces the live holder out; a contender commits.
		operator := fast(contender)
		held, err := locking.Inspect(e.fsys, target, operator)
		if err != nil || held.State != locking.StateAlive || held.PID != holder.PID() {
			t.Fatalf("Inspect = %+v, %v", held, err)
		}
		if err := locking.Unlock(context.Background(), e.fsys, target, held, false, operator); !errors.As(err, new(*locking.RefusedError)) {
			t.Fatalf("unlock without --force of a live holder: %v, want *RefusedError", err)
		}
		if err := locking.Unlock(context.Background(), e.fsys, target, held, true, operator); err != nil {
			t.Fatalf("unlock --force: %v", err)
		}
		if err := locking.Update(context.Background(), e.fsys, target, appendRecord("contender"), operator); err != nil {
			t.Fatalf("contender: %v", err)
		}
		close(gate.release)
		if err := <-done; err != nil {
			t.Fatalf("forced holder: %v", err)
		}
		e.wantRecords(t, "contender", "holder")
		if recs := e.records(t); recs[0] != "contender" {
			t.Fatalf("records %q: the forced holder committed before the contender", recs)
		}
		if len(committed) != 2 {
			t.Fatalf("the forced holder passed its fence %d times (steps %v), want once, on the retry", len(committed)/2, committed)
		}
		e.onlyTarget(t, true)
	})
}

// R22: a lost lock never commits, and its release puts back the lock that
// replaced the holder's own file (the same inode with hard links, a copy
// with the newer holder's token without).
func TestReleasePutsBackNewerLock(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		old, newer := m.Spawn(), m.Spawn()
		var steps []locking.Step
		opts := fast(old)
		opts.OnStep = func(s locking.Step) { steps = append(steps, s) }
		h, err := locking.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		// unlock --force and a new holder: the lock name now holds
		// another lock.
		if err := os.Remove(e.path(lockP)); err != nil {
			t.Fatal(err)
		}
		h2, err := locking.Acquire(context.Background(), e.fsys, target, fast(newer))
		if err != nil {
			t.Fatal(err)
		}
		newBytes := e.readRaw(t, lockP)
		fi, _ := os.Stat(e.path(lockP))

		if err := h.Commit([]byte(`["lost"]`)); !errors.Is(err, locking.ErrLockLost) {
			t.Fatalf("commit under a lost lock: %v, want ErrLockLost", err)
		}
		if e.exists(target) {
			t.Fatal("a lost lock committed")
		}
		if err := h.Release(); !errors.Is(err, locking.ErrLockLost) {
			t.Fatalf("release: %v, want ErrLockLost", err)
		}
		if !bytes.Equal(e.readRaw(t, lockP), newBytes) {
			t.Fatalf("the newer lock was not put back byte for byte")
		}
		fi2, _ := os.Stat(e.path(lockP))
		if e.class == "links" && !os.SameFile(fi, fi2) {
			t.Fatal("with hard links the put-back is a link: the inode must stay")
		}
		if !hasStep(steps, locking.StepReleaseMismatch) || !hasStep(steps, locking.StepReleasePutBack) {
			t.Fatalf("steps %v, want the mismatch and the put-back", steps)
		}
		if (e.class == "nolinks") != hasStep(steps, locking.StepReleasePutBackOpened) {
			t.Fatalf("steps %v: put-back-opened is the no-hard-links step", steps)
		}
		if err := h2.Fence(); err != nil {
			t.Fatalf("the newer holder's fence after the put-back: %v", err)
		}
		if err := h2.Commit([]byte(`["newer"]`)); err != nil {
			t.Fatal(err)
		}
		if err := h2.Release(); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "newer")
		e.onlyTarget(t, true)
	})
}

// A release never unlinks the lock name: with the name taken between its
// move and its put-back, the moved lock is dropped and the third lock stays.
func TestPutBackNeverReplacesTakenName(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		old := m.Spawn()
		third := lockJSON(m.Spawn().PID(), "host-a", true, "333333333333333333333333", time.Now())
		opts := fast(old)
		opts.OnStep = func(s locking.Step) {
			if s == locking.StepReleaseMismatch {
				e.writeRaw(t, lockP, third)
			}
		}
		h, err := locking.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		e.writeRaw(t, lockP, lockJSON(m.Spawn().PID(), "host-a", true, "222222222222222222222222", time.Now()))
		if err := h.Release(); !errors.Is(err, locking.ErrLockLost) {
			t.Fatalf("release: %v", err)
		}
		if !bytes.Equal(e.readRaw(t, lockP), third) {
			t.Fatal("the third writer's lock was replaced by the put-back")
		}
		if got := e.ls(t); len(got) != 1 {
			t.Fatalf("folder holds %q, want the third lock only", got)
		}
	})
}

// A fenced-out Update whose deadline has passed fails with ErrLockLost and
// writes nothing.
func TestLostLockAfterDeadlineFails(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		opts := fast(m.Spawn())
		opts.Timeout = locking.NoWait
		opts.OnStep = func(s locking.Step) {
			if s == locking.StepCommitTempWritten {
				_ = os.Remove(e.path(lockP)) // forced out
			}
		}
		err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
		if !errors.Is(err, locking.ErrLockLost) {
			t.Fatalf("err = %v, want ErrLockLost", err)
		}
		if e.exists(target) {
			t.Fatal("a fenced-out writer committed")
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
	})
}

// An error from the UpdateFunc ends the update with nothing written and the
// lock released; a missing file reads as exists=false.
func TestUpdateFuncErrorWritesNothing(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		boom := errors.New("boom")
		var sawExists = true
		err := locking.Update(context.Background(), e.fsys, target, func(cur []byte, exists bool) ([]byte, error) {
			sawExists = exists
			return nil, boom
		}, fast(nil))
		if !errors.Is(err, boom) || sawExists {
			t.Fatalf("err = %v, exists = %v", err, sawExists)
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
		if _, err := locking.Inspect(e.fsys, target, fast(nil)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Inspect after release: %v", err)
		}
	})
}
