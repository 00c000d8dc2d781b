package lockspec_test

// A hold after its release, and a release whose lock is gone.

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// A hold that is released commits nothing more.
func TestCommitAfterReleaseRefused(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(nil))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		if err := h.Commit([]byte(`["late"]`)); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("commit after release: %v, want ErrLockLost", err)
		}
		if e.exists(target) {
			t.Fatal("a released hold committed")
		}
	})
}

// A release whose lock is gone (forced out, nobody took it) reports the
// loss; a breaker whose lock vanished between its confirm and its rename
// publishes its own at once.
func TestVanishedLocks(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(nil))
		if err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(e.path(lockP))
		if err := h.Release(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("release of a vanished lock: %v, want ErrLockLost", err)
		}
		e.writeRaw(t, lockP, lockJSON(locktest.DeadPID(t), hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
		opts := fast(nil)
		opts.Timeout = lockspec.NoWait
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepBreakConfirmed {
				_ = os.Remove(e.path(lockP)) // another unlock got there first
			}
		})
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), opts); err != nil {
			t.Fatalf("a breaker whose lock vanished: %v", err)
		}
		e.wantRecords(t, "a")
		e.onlyTarget(t, true)
	})
}
