package locking_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// R18: with no lock, Inspect says so and Unlock is never reached.
func TestInspectNoLock(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		if _, err := locking.Inspect(e.fsys, target, fast(nil)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("err = %v, want fs.ErrNotExist", err)
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
	})
}

// R19: a lock whose holder is provably dead is removed by the break's steps.
func TestUnlockDeadHolder(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		pid := locktest.DeadPID(t)
		e.writeRaw(t, lockP, lockJSON(pid, hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
		held, err := locking.Inspect(e.fsys, target, fast(nil))
		if err != nil || held.State != locking.StateDead || held.PID != pid {
			t.Fatalf("Inspect = %+v, %v", held, err)
		}
		var steps []locking.Step
		opts := fast(nil)
		opts.OnStep = func(s locking.Step) { steps = append(steps, s) }
		if err := locking.Unlock(context.Background(), e.fsys, target, held, false, opts); err != nil {
			t.Fatal(err)
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
		want := []locking.Step{locking.StepBreakJudged, locking.StepBreakClaimed, locking.StepBreakConfirmed, locking.StepBreakRenamed, locking.StepBreakRemoved}
		if !equalSteps(steps, want) {
			t.Fatalf("steps %v, want %v", steps, want)
		}
	})
}

// R20 and R05: a live holder, a holder on another host, a reused pid and an
// unreadable lock are refused without --force: the holder named, --force
// named with when to use it, the lock byte for byte. With --force each is
// removed.
func TestUnlockRefusesThenForces(t *testing.T) {
	live := locktest.LivePID(t)
	dead := locktest.DeadPID(t)
	cases := map[string]func(t *testing.T) []byte{
		"live": func(t *testing.T) []byte {
			return lockJSON(live, hostname(t), true, "111111111111111111111111", time.Now())
		},
		"other host": func(t *testing.T) []byte {
			return lockJSON(dead, "elsewhere", true, "222222222222222222222222", time.Now())
		},
		"reused pid": func(t *testing.T) []byte {
			return lockJSON(live, hostname(t), true, "333333333333333333333333", time.Unix(0, 0))
		},
		"empty":      func(t *testing.T) []byte { return nil },
		"unreadable": func(t *testing.T) []byte { return []byte("{\"pid\":\x1b[2J") },
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				lock := mk(t)
				e.writeRaw(t, lockP, lock)
				held, err := locking.Inspect(e.fsys, target, fast(nil))
				if err != nil {
					t.Fatal(err)
				}
				err = locking.Unlock(context.Background(), e.fsys, target, held, false, fast(nil))
				var re *locking.RefusedError
				if !errors.As(err, &re) {
					t.Fatalf("err = %v, want *RefusedError", err)
				}
				contains(t, err.Error(), "--force", "only once the holder's process is gone or stuck", "never while it still runs")
				if !bytes.Equal(e.readRaw(t, lockP), lock) {
					t.Fatal("a refused unlock changed the lock")
				}
				if got := e.ls(t); len(got) != 1 {
					t.Fatalf("folder holds %q", got)
				}
				if err := locking.Unlock(context.Background(), e.fsys, target, held, true, fast(nil)); err != nil {
					t.Fatalf("--force: %v", err)
				}
				if got := e.ls(t); len(got) != 0 {
					t.Fatalf("after --force the folder holds %q", got)
				}
			})
		})
	}
}

// Unlock removes only the lock it judged: a lock replaced since it was read
// is left alone, with or without --force.
func TestUnlockChangedLockRemovesNothing(t *testing.T) {
	for _, force := range []bool{false, true} {
		eachClass(t, func(t *testing.T, e *estate) {
			dead := locktest.DeadPID(t)
			e.writeRaw(t, lockP, lockJSON(dead, hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
			held, err := locking.Inspect(e.fsys, target, fast(nil))
			if err != nil {
				t.Fatal(err)
			}
			fresh := lockJSON(dead, hostname(t), true, "feedfeedfeedfeedfeedfeed", time.Now())
			e.writeRaw(t, lockP, fresh)
			err = locking.Unlock(context.Background(), e.fsys, target, held, force, fast(nil))
			if !errors.Is(err, locking.ErrLockChanged) {
				t.Fatalf("force=%v: err = %v, want ErrLockChanged", force, err)
			}
			if !bytes.Equal(e.readRaw(t, lockP), fresh) {
				t.Fatalf("force=%v: the changed lock was touched", force)
			}
			if got := e.ls(t); len(got) != 1 {
				t.Fatalf("folder holds %q", got)
			}
		})
	}
}

// unlock --force does not stop for another breaker's live claim.
func TestForceIgnoresLiveClaims(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		stalled := m.Spawn()
		gate := newGate(locking.StepBreakClaimed)
		opts := fast(stalled)
		opts.Timeout = 200 * time.Millisecond
		opts.OnStep = gate.at
		done := make(chan error)
		go func() {
			_, err := locking.Acquire(context.Background(), e.fsys, target, opts)
			done <- err
		}()
		<-gate.reached
		operator := fast(m.Spawn())
		held, _ := locking.Inspect(e.fsys, target, operator)
		if err := locking.Unlock(context.Background(), e.fsys, target, held, true, operator); err != nil {
			t.Fatalf("--force with a live claim on the lock: %v", err)
		}
		close(gate.release)
		<-done
	})
}
