package conformance

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// fakeDeadLock writes a lock of a dead process of the fake machine m and
// returns its bytes.
func fakeDeadLock(t *testing.T, s *site, m *locktest.Machine) []byte {
	t.Helper()
	p := m.Spawn()
	p.Kill()
	lock := lockJSON(p.PID(), m.Hostname(), true, "deaddeaddeaddeaddeaddead", time.Now().Add(-time.Hour))
	s.writeRaw(t, lockName, lock)
	return lock
}

// R09: two breakers of one dead lock. Breaker A stops after its claim;
// breaker B must see A's live claim and back off (it judges the lock again
// and again, never passing break:claimed) until A goes on; then both write,
// and nothing is left.
func twoBreakersNeverTogether(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	fakeDeadLock(t, s, m)
	a, b := m.Spawn(), m.Spawn()
	gate := newGate(lockspec.StepBreakClaimed)
	optsA := patient(a)
	lockspec.SetOnStep(&optsA, gate.at)
	doneA := make(chan error, 1)
	go func() { doneA <- s.write("a", optsA) }()
	gate.await(t, "breaker A", doneA)

	var aPaused atomic.Bool
	aPaused.Store(true)
	var judged atomic.Int32
	backedOff := make(chan struct{})
	violation := make(chan struct{}, 1)
	optsB := patient(b)
	lockspec.SetOnStep(&optsB, func(st lockspec.Step) {
		switch st {
		case lockspec.StepBreakJudged:
			if judged.Add(1) == 3 {
				close(backedOff) // judged again twice: it backed off
			}
		case lockspec.StepBreakClaimed:
			if aPaused.Load() {
				select {
				case violation <- struct{}{}:
				default:
				}
			}
		}
	})
	doneB := make(chan error, 1)
	go func() { doneB <- s.write("b", optsB) }()
	var failure string
	select {
	case <-backedOff:
	case <-violation:
		failure = "breaker B passed its claim while A held its claim on the same lock"
	case err := <-doneB:
		failure = "breaker B finished (" + errString(err) + ") while A held its claim on the same lock"
	}
	aPaused.Store(false)
	gate.open()
	if err := <-doneA; err != nil {
		t.Fatalf("A: %v", err)
	}
	if failure != "" {
		t.Fatal(failure)
	}
	if err := <-doneB; err != nil {
		t.Fatalf("B: %v", err)
	}
	s.wantTitles(t, "a", "b")
	s.onlyLog(t)
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

// R09 again, with no pause: rounds of four breakers started together
// against a dead lock; the breaks (break:claimed to the claim's removal)
// never overlap, every write lands and nothing is left.
func breakersAtOnceNeverOverlap(t *testing.T, s *site) {
	m := locktest.NewMachine("host-a")
	var mu sync.Mutex
	inside := map[int]bool{}
	most := 0
	ffs := faultfs.New(s.fs)
	// Before the claim's removal runs: once it has run, another breaker
	// may list and pass its claim before an After hook would run.
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRemove && strings.Contains(ev.Name, ".claim-") {
			parts := strings.Split(ev.Name, "-")
			pid, _ := strconv.Atoi(parts[len(parts)-2])
			mu.Lock()
			delete(inside, pid)
			mu.Unlock()
		}
		return nil
	})
	for round := range 10 {
		_ = s.raw.Remove(logName)
		fakeDeadLock(t, s, m)
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		start := make(chan struct{})
		for i := range 4 {
			p := m.Spawn()
			o := patient(p)
			lockspec.SetOnStep(&o, func(st lockspec.Step) {
				if st == lockspec.StepBreakClaimed {
					mu.Lock()
					inside[p.PID()] = true
					most = max(most, len(inside))
					mu.Unlock()
				}
			})
			wg.Go(func() {
				<-start
				_, err := spawnlog.Append(context.Background(), ffs, agent, string(rune('a'+i)), nil, o)
				errs <- err
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if most > 1 {
			t.Fatalf("round %d: %d breakers were past their claim at once", round, most)
		}
		s.wantTitles(t, "a", "b", "c", "d")
		s.onlyLog(t)
	}
}

// R10: a breaker that judged a dead lock just before another broke it and
// took a fresh lock leaves the fresh lock alone: not moved (the same inode
// too), its holder's fence still passes. Run with the fresh holder alive,
// and dead by the time the late breaker goes on (then only the bytes check
// stands between the late breaker and the fresh lock).
func lateBreakerLeavesFreshLock(freshDies bool) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		m := locktest.NewMachine("host-a")
		fakeDeadLock(t, s, m)
		late, fresh := m.Spawn(), m.Spawn()
		gate := newGate(lockspec.StepBreakJudged)
		var mu sync.Mutex
		var lateSteps []lockspec.Step
		optsLate := fast(late)
		optsLate.Timeout = 50 * time.Millisecond
		lockspec.SetOnStep(&optsLate, func(st lockspec.Step) {
			mu.Lock()
			lateSteps = append(lateSteps, st)
			mu.Unlock()
			gate.at(st)
		})
		doneLate := make(chan error, 1)
		go func() {
			h, err := locking.Acquire(context.Background(), s.fs, logName, optsLate)
			if err == nil {
				err = h.Release()
			}
			doneLate <- err
		}()
		gate.await(t, "the late breaker", doneLate)

		h, err := locking.Acquire(context.Background(), s.fs, logName, noWait(fresh))
		if err != nil {
			gate.open()
			<-doneLate
			t.Fatalf("fresh: %v", err)
		}
		freshBytes := s.readRaw(t, lockName)
		fi := s.stat(t, lockName)
		if freshDies {
			fresh.Kill()
		}
		gate.open()
		err = <-doneLate

		mu.Lock()
		steps := slices.Clone(lateSteps)
		mu.Unlock()
		// The late breaker's first break (its first break:judged to its
		// next) must end before its confirm.
		first := steps[slices.Index(steps, lockspec.StepBreakJudged)+1:]
		if i := slices.Index(first, lockspec.StepBreakJudged); i >= 0 {
			first = first[:i]
		}
		if hasStep(first, lockspec.StepBreakConfirmed) || hasStep(first, lockspec.StepBreakRenamed) {
			t.Fatalf("the late breaker confirmed or moved the fresh lock: %v", steps)
		}
		if freshDies {
			// The fresh holder died: the late breaker judged that lock
			// anew and broke it by the rules.
			if err != nil {
				t.Fatalf("the late breaker after the fresh holder died: %v", err)
			}
			return
		}
		var te *locking.TimeoutError
		if !errors.As(err, &te) || te.Holder.PID != fresh.PID() {
			t.Fatalf("the late breaker: %v; want a timeout naming the fresh holder", err)
		}
		same, known := s.sameFile(fi, s.stat(t, lockName))
		if known && !same || !bytes.Equal(s.readRaw(t, lockName), freshBytes) {
			t.Fatal("the fresh lock was moved or changed")
		}
		if err := h.Fence(); err != nil {
			t.Fatalf("the fresh holder's fence: %v", err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		s.empty(t)
	}
}
