package lockspec_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// A retry after a lost lock gets only the time left of the one timeout
// from Update's start, not a fresh timeout: fenced out once, then blocked by
// a live holder, Update gives up about one timeout after it began.
func TestRetryGetsOnlyTheTimeLeft(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		newer := m.Spawn()
		opts := fast(m.Spawn())
		// Durations doubled from 1s so that a loaded machine keeps 700ms
		// between the bound and both outcomes (2s: right; 3.4s: a fresh
		// timeout).
		opts.Timeout = 2 * time.Second
		forced := false
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepHoldRead && !forced {
				// A slow first hold: it uses 1.4s of the 2s timeout
				// before its fence finds the loss (a duration, not an
				// ordering of events).
				time.Sleep(1400 * time.Millisecond)
			}
			if s == lockspec.StepCommitTempWritten && !forced {
				forced = true // unlock --force, and a live holder takes the lock
				_ = os.Remove(e.path(lockP))
				if _, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(newer)); err != nil {
					t.Error(err)
				}
			}
		})
		start := time.Now()
		err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
		took := time.Since(start)
		switch {
		case errors.Is(err, lockspec.ErrTimeout):
		case errors.Is(err, lockspec.ErrLockLost) && took >= opts.Timeout:
			// A loaded machine spent the rest of the timeout before the
			// retry could start: the lost lock is reported, as right as
			// the timeout (no fresh timeout either way).
		default:
			t.Fatalf("err = %v after %v, want a timeout naming the newer holder (or, once the 2s ran out, the lost lock)", err, took)
		}
		if took > 2700*time.Millisecond {
			t.Fatalf("Update took %v with a 2s timeout: the retry got a fresh timeout", took)
		}
		if e.exists(target) {
			t.Fatal("a fenced-out writer committed")
		}
	})
}
