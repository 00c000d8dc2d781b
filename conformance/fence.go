package conformance

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// R22: a lost lock never commits, and its release puts back the lock that
// replaced the holder's own (the same inode with hard links, a copy with
// the newer holder's token without); the newer holder's fence passes.
func releasePutsBackNewerLock(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	old, newer := m.Spawn(), m.Spawn()
	var steps []lockspec.Step
	o := fast(old)
	lockspec.SetOnStep(&o, func(st lockspec.Step) { steps = append(steps, st) })
	h, err := locking.Acquire(context.Background(), s.fs, logName, o)
	if err != nil {
		t.Fatal(err)
	}
	// unlock --force and a new holder: the lock name holds another lock.
	s.remove(t, lockName)
	h2, err := locking.Acquire(context.Background(), s.fs, logName, fast(newer))
	if err != nil {
		t.Fatal(err)
	}
	newBytes := s.readRaw(t, lockName)
	fi := s.stat(t, lockName)
	if err := h.Commit(logDoc("lost")); !errors.Is(err, locking.ErrLockLost) {
		t.Fatalf("a commit under a lost lock: %v; want ErrLockLost", err)
	}
	if s.exists(logName) {
		t.Fatal("a lost lock committed")
	}
	if err := h.Release(); !errors.Is(err, locking.ErrLockLost) {
		t.Fatalf("release: %v; want ErrLockLost", err)
	}
	if !bytes.Equal(s.readRaw(t, lockName), newBytes) {
		t.Fatal("the newer lock was not put back byte for byte")
	}
	if same, known := s.sameFile(fi, s.stat(t, lockName)); s.class == Links && known && !same {
		t.Fatal("with hard links the put-back is a link: the inode must stay")
	}
	if !hasStep(steps, lockspec.StepReleaseMismatch) || !hasStep(steps, lockspec.StepReleasePutBack) {
		t.Fatalf("steps %v; want the mismatch and the put-back", steps)
	}
	if (s.class == NoLinks) != hasStep(steps, lockspec.StepReleasePutBackOpened) {
		t.Fatalf("steps %v: put-back-opened is the step of the spec's class without hard links only", steps)
	}
	if err := h2.Fence(); err != nil {
		t.Fatalf("the newer holder's fence after the put-back: %v", err)
	}
	if err := h2.Commit(logDoc("newer")); err != nil {
		t.Fatal(err)
	}
	if err := h2.Release(); err != nil {
		t.Fatal(err)
	}
	s.wantTitles(t, "newer")
	s.onlyLog(t)
}

// R22: a release never unlinks the lock name: with the name taken between
// its move and its put-back, the moved lock is dropped and the third lock
// stays.
func putBackNeverReplacesTakenName(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	third := lockJSON(m.Spawn().PID(), "host-a", true, "333333333333333333333333", time.Now())
	o := fast(m.Spawn())
	lockspec.SetOnStep(&o, func(st lockspec.Step) {
		if st == lockspec.StepReleaseMismatch {
			s.writeRaw(t, lockName, third)
		}
	})
	h, err := locking.Acquire(context.Background(), s.fs, logName, o)
	if err != nil {
		t.Fatal(err)
	}
	s.writeRaw(t, lockName, lockJSON(m.Spawn().PID(), "host-a", true, "222222222222222222222222", time.Now()))
	if err := h.Release(); !errors.Is(err, locking.ErrLockLost) {
		t.Fatalf("release: %v; want ErrLockLost", err)
	}
	if !bytes.Equal(s.readRaw(t, lockName), third) {
		t.Fatal("the third writer's lock was replaced by the put-back")
	}
	if got := s.ls(t); len(got) != 1 {
		t.Fatalf("the folder holds %q; want the third lock only", got)
	}
}

// R22: a writer fenced out when its time has run out fails with
// ErrLockLost and writes nothing.
func lostLockAfterDeadline(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	o := noWait(m.Spawn())
	lockspec.SetOnStep(&o, func(st lockspec.Step) {
		if st == lockspec.StepCommitTempWritten {
			_ = s.drop(lockName) // forced out
		}
	})
	if err := s.write("a", o); !errors.Is(err, locking.ErrLockLost) {
		t.Fatalf("err = %v; want ErrLockLost", err)
	}
	if s.exists(logName) {
		t.Fatal("a fenced-out writer committed")
	}
	s.empty(t)
}

// R39: a breaker that moved a lock that was not the one it judged (unlock
// --force and a new holder inside its confirm-to-rename window) puts it
// back by exclusive create and never removes it; the new holder's fence
// still passes, and nothing is left once it releases.
func breakerPutsBackReplacedLock(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	fakeDeadLock(t, s, m)
	breaker, operator, newer := m.Spawn(), m.Spawn(), m.Spawn()
	gate := newGate(lockspec.StepBreakConfirmed)
	var mu sync.Mutex
	var steps []lockspec.Step
	o := fast(breaker)
	o.Timeout = 50 * time.Millisecond
	lockspec.SetOnStep(&o, func(st lockspec.Step) {
		mu.Lock()
		steps = append(steps, st)
		mu.Unlock()
		gate.at(st)
	})
	done := make(chan error, 1)
	go func() {
		_, err := locking.Acquire(context.Background(), s.fs, logName, o)
		done <- err
	}()
	gate.await(t, "the breaker", done)
	held, err := locking.Inspect(s.fs, logName, fast(operator))
	if err == nil {
		err = locking.Unlock(context.Background(), s.fs, logName, held, true, fast(operator))
	}
	if err != nil {
		gate.open()
		<-done
		t.Fatalf("unlock --force: %v", err)
	}
	h, err := locking.Acquire(context.Background(), s.fs, logName, fast(newer))
	if err != nil {
		gate.open()
		<-done
		t.Fatal(err)
	}
	newBytes := s.readRaw(t, lockName)
	gate.open()
	var te *locking.TimeoutError
	if err := <-done; !errors.As(err, &te) || te.Holder.PID != newer.PID() {
		t.Fatalf("the breaker: %v; want a timeout naming the new holder", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !hasStep(steps, lockspec.StepBreakMismatch) || !hasStep(steps, lockspec.StepBreakPutBack) || hasStep(steps, lockspec.StepBreakRemoved) {
		t.Fatalf("steps %v: want the mismatch and the put-back, never a removal", steps)
	}
	if !bytes.Equal(s.readRaw(t, lockName), newBytes) {
		t.Fatal("the new lock was not put back byte for byte")
	}
	if err := h.Fence(); err != nil {
		t.Fatalf("the new holder's fence: %v", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	s.empty(t)
}
