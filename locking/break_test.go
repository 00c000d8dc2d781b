package locking_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/faultfs"
)

// deadLock writes a lock of a dead process of machine m and returns its
// bytes.
func deadLock(t *testing.T, e *estate, m *locktest.Machine) []byte {
	t.Helper()
	p := m.Spawn()
	p.Kill()
	lock := lockJSON(p.PID(), m.Hostname(), true, "deaddeaddeaddeaddeaddead", time.Now().Add(-time.Hour))
	e.writeRaw(t, lockP, lock)
	return lock
}

// stepGate pauses the goroutine that reaches step the first time, until
// release is closed; reached is closed when it gets there.
type stepGate struct {
	step    locking.Step
	once    sync.Once
	reached chan struct{}
	release chan struct{}
}

func newGate(s locking.Step) *stepGate {
	return &stepGate{step: s, reached: make(chan struct{}), release: make(chan struct{})}
}

func (g *stepGate) at(s locking.Step) {
	if s != g.step {
		return
	}
	first := false
	g.once.Do(func() { first = true })
	if first {
		close(g.reached)
		<-g.release
	}
}

// R09: two breakers at once against a dead-holder lock both run, never
// together, and leave no lock, claim or broken file. Breaker A stops after
// its claim; breaker B must see A's live claim and back off (it judges the
// lock again and again, never passing break:claimed) until A goes on.
func TestTwoBreakersNeverTogether(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		a, b := m.Spawn(), m.Spawn()

		gate := newGate(locking.StepBreakClaimed)
		optsA := fast(a)
		optsA.Timeout = 10 * time.Second
		optsA.OnStep = gate.at
		doneA := make(chan error)
		go func() {
			doneA <- locking.Update(context.Background(), e.fsys, target, appendRecord("a"), optsA)
		}()
		<-gate.reached

		var aPaused atomic.Bool
		aPaused.Store(true)
		var judged atomic.Int32
		backedOff := make(chan struct{})
		violation := make(chan struct{}, 1)
		optsB := fast(b)
		optsB.Timeout = 10 * time.Second
		optsB.OnStep = func(s locking.Step) {
			switch s {
			case locking.StepBreakJudged:
				if judged.Add(1) == 3 {
					close(backedOff) // judged again twice: it backed off
				}
			case locking.StepBreakClaimed:
				if aPaused.Load() {
					violation <- struct{}{}
				}
			}
		}
		doneB := make(chan error, 1)
		go func() {
			doneB <- locking.Update(context.Background(), e.fsys, target, appendRecord("b"), optsB)
		}()
		select {
		case <-backedOff:
		case <-violation:
			aPaused.Store(false)
			close(gate.release)
			<-doneA
			t.Fatal("breaker B passed its claim while A held its claim on the same lock")
		case err := <-doneB:
			aPaused.Store(false)
			close(gate.release)
			<-doneA
			t.Fatalf("breaker B finished (%v) while A held its claim on the same lock", err)
		}
		aPaused.Store(false)
		close(gate.release)
		if err := <-doneA; err != nil {
			t.Fatalf("A: %v", err)
		}
		if err := <-doneB; err != nil {
			t.Fatalf("B: %v", err)
		}
		e.wantRecords(t, "a", "b")
		e.onlyTarget(t, true)
	})
}

// R09 again, with no pause: rounds of four breakers started together
// against a dead lock; the breaks (claimed..removed) never overlap, every
// write lands and nothing is left.
func TestBreakersAtOnceNeverOverlap(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		// A breaker goes on from its break:claimed until its claim is
		// removed (the end of its break, whatever the confirm found). Count
		// the breakers inside that span, by the pid in the claim's name.
		var mu sync.Mutex
		inside := map[int]bool{}
		most := 0
		ffs := faultfs.New(e.fsys)
		// Before the removal runs: once it has run, another breaker may list
		// and pass its claim before an After hook would get to run.
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
		for round := 0; round < 20; round++ {
			_ = os.Remove(e.path(target))
			deadLock(t, e, m)
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			start := make(chan struct{})
			for i := 0; i < 4; i++ {
				p := m.Spawn()
				opts := fast(p)
				opts.Timeout = 10 * time.Second
				opts.OnStep = func(s locking.Step) {
					if s == locking.StepBreakClaimed {
						mu.Lock()
						inside[p.PID()] = true
						most = max(most, len(inside))
						mu.Unlock()
					}
				}
				wg.Add(1)
				go func(rec string) {
					defer wg.Done()
					<-start
					errs <- locking.Update(context.Background(), ffs, target, appendRecord(rec), opts)
				}(string(rune('a' + i)))
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
			e.wantRecords(t, "a", "b", "c", "d")
			e.onlyTarget(t, true)
		}
	})
}

// R10: a breaker that judged a dead lock just before another broke it and
// took a fresh lock leaves the fresh lock alone: not moved (same inode), its
// holder's fence still passes. Run twice: with the fresh lock's holder alive,
// and dead by the time the late breaker confirms (then only the bytes check
// stands between the late breaker and the fresh lock).
func TestLateBreakerLeavesFreshLockAlone(t *testing.T) {
	for _, freshDies := range []bool{false, true} {
		name := "fresh holder alive"
		if freshDies {
			name = "fresh holder dead at confirm"
		}
		t.Run(name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				m := locktest.NewMachine("host-a")
				deadLock(t, e, m)
				late, fresh := m.Spawn(), m.Spawn()

				gate := newGate(locking.StepBreakJudged)
				var mu sync.Mutex
				var lateSteps []locking.Step
				optsLate := fast(late)
				optsLate.Timeout = 50 * time.Millisecond
				optsLate.OnStep = func(s locking.Step) {
					mu.Lock()
					lateSteps = append(lateSteps, s)
					mu.Unlock()
					gate.at(s)
				}
				doneLate := make(chan error)
				go func() {
					_, err := locking.Acquire(context.Background(), e.fsys, target, optsLate)
					doneLate <- err
				}()
				<-gate.reached

				optsFresh := fast(fresh)
				optsFresh.Timeout = locking.NoWait
				h, err := locking.Acquire(context.Background(), e.fsys, target, optsFresh)
				if err != nil {
					t.Fatalf("fresh: %v", err)
				}
				freshBytes := e.readRaw(t, lockP)
				fi, err := os.Stat(e.path(lockP))
				if err != nil {
					t.Fatal(err)
				}
				if freshDies {
					fresh.Kill()
				}
				close(gate.release)
				err = <-doneLate

				mu.Lock()
				steps := lateSteps
				mu.Unlock()
				// The late breaker's first break (from its first
				// break:judged to its next) must end before its confirm.
				first := steps[slices.Index(steps, locking.StepBreakJudged)+1:]
				if i := slices.Index(first, locking.StepBreakJudged); i >= 0 {
					first = first[:i]
				}
				if hasStep(first, locking.StepBreakConfirmed) || hasStep(first, locking.StepBreakRenamed) {
					t.Fatalf("the late breaker confirmed or moved the fresh lock: %v", steps)
				}
				if !freshDies {
					var te *locking.TimeoutError
					if !errors.As(err, &te) || te.Holder.PID != fresh.PID() {
						t.Fatalf("late breaker: err = %v, want a timeout naming the fresh holder", err)
					}
					fi2, err := os.Stat(e.path(lockP))
					if err != nil {
						t.Fatal(err)
					}
					if !os.SameFile(fi, fi2) || !bytes.Equal(e.readRaw(t, lockP), freshBytes) {
						t.Fatal("the fresh lock was moved or changed")
					}
					if err := h.Fence(); err != nil {
						t.Fatalf("the fresh holder's fence: %v", err)
					}
					if err := h.Release(); err != nil {
						t.Fatal(err)
					}
				} else if err != nil {
					// The fresh holder died: the late breaker judges that
					// lock anew and breaks it by the rules.
					t.Fatalf("late breaker after the fresh holder died: %v", err)
				}
			})
		})
	}
}

// R11: a breaker stalled past any window after its claim keeps every other
// breaker of that lock waiting; they time out naming the dead holder, unlock
// refuses while the claim is live (naming the claim's owner), and the
// breaker finishes alone.
func TestStalledBreakerBlocksOthers(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		stalled := m.Spawn()
		gate := newGate(locking.StepBreakClaimed)
		opts := fast(stalled)
		opts.OnStep = gate.at
		done := make(chan error)
		go func() {
			done <- locking.Update(context.Background(), e.fsys, target, appendRecord("stalled"), opts)
		}()
		<-gate.reached

		other := fast(m.Spawn())
		other.Timeout = 60 * time.Millisecond
		err := locking.Update(context.Background(), e.fsys, target, appendRecord("other"), other)
		var te *locking.TimeoutError
		if !errors.As(err, &te) || te.Holder.State != locking.StateDead {
			t.Fatalf("other writer: err = %v, want a timeout naming the dead holder", err)
		}
		held, err := locking.Inspect(e.fsys, target, other)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = locking.Unlock(context.Background(), e.fsys, target, held, false, other)
		var be *locking.BusyError
		if !errors.As(err, &be) || be.Claim.PID != stalled.PID() {
			t.Fatalf("unlock: err = %v, want a *BusyError naming pid %d", err, stalled.PID())
		}
		if waited := time.Since(start); waited < 100*time.Millisecond {
			t.Errorf("unlock gave up after %v, want the busy-wait (100ms here)", waited)
		}
		if !bytes.Equal(e.readRaw(t, lockP), lock) {
			t.Fatal("the dead lock changed while the stalled breaker held its claim")
		}
		close(gate.release)
		if err := <-done; err != nil {
			t.Fatalf("stalled breaker: %v", err)
		}
		e.wantRecords(t, "stalled")
		e.onlyTarget(t, true)
	})
}

// A breaker that moved a lock that was not the one it judged (unlock
// --force and a new holder inside its confirm-to-rename window) puts it back
// by exclusive create, and the new holder's fence still passes.
func TestBreakerPutsBackLockReplacedAfterConfirm(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		breaker, operator, newer := m.Spawn(), m.Spawn(), m.Spawn()
		gate := newGate(locking.StepBreakConfirmed)
		var mu sync.Mutex
		var steps []locking.Step
		opts := fast(breaker)
		opts.Timeout = 50 * time.Millisecond
		opts.OnStep = func(s locking.Step) {
			mu.Lock()
			steps = append(steps, s)
			mu.Unlock()
			gate.at(s)
		}
		done := make(chan error)
		go func() {
			_, err := locking.Acquire(context.Background(), e.fsys, target, opts)
			done <- err
		}()
		<-gate.reached
		held, err := locking.Inspect(e.fsys, target, fast(operator))
		if err != nil {
			t.Fatal(err)
		}
		if err := locking.Unlock(context.Background(), e.fsys, target, held, true, fast(operator)); err != nil {
			t.Fatal(err)
		}
		h, err := locking.Acquire(context.Background(), e.fsys, target, fast(newer))
		if err != nil {
			t.Fatal(err)
		}
		newBytes := e.readRaw(t, lockP)
		close(gate.release)
		var te *locking.TimeoutError
		if err := <-done; !errors.As(err, &te) || te.Holder.PID != newer.PID() {
			t.Fatalf("breaker: %v, want a timeout naming the new holder", err)
		}
		mu.Lock()
		defer mu.Unlock()
		if !hasStep(steps, locking.StepBreakMismatch) || !hasStep(steps, locking.StepBreakPutBack) || hasStep(steps, locking.StepBreakRemoved) {
			t.Fatalf("steps %v: want the mismatch and the put-back, never a removal", steps)
		}
		if !bytes.Equal(e.readRaw(t, lockP), newBytes) {
			t.Fatal("the new lock was not put back byte for byte")
		}
		if err := h.Fence(); err != nil {
			t.Fatalf("the new holder's fence: %v", err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
	})
}
