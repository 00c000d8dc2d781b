package lockspec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/locking/policy"
)

// wantCode fails unless err, wrapped once more as a caller would, carries
// code (policy.CodeOf) and still matches target (errors.Is), when target
// is not nil.
func wantCode(t *testing.T, what string, err error, code policy.Code, target error) {
	t.Helper()
	wrapped := fmt.Errorf("caller: %w", err)
	if got, ok := policy.CodeOf(wrapped); !ok || got != code {
		t.Errorf("%s: CodeOf(%v) = %q, %v; want %q", what, err, got, ok, code)
	}
	if target != nil && !errors.Is(wrapped, target) {
		t.Errorf("%s: %v does not match %v", what, err, target)
	}
}

// The fail-safe lock's outcomes carry the stable codes of locking/policy,
// as a JSON error's error_code: the ones a caller meets for real (a
// timeout on a live holder, a commit under a lost lock, an unlock refused,
// an unlock of a lock that changed), and each error value.
func TestErrorCodes(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = lockspec.Acquire(context.Background(), e.fsys, target, dirNoWait(m.Spawn()))
	wantCode(t, "a timeout on a live holder", err, "lock_acquire_timeout", lockspec.ErrTimeout)

	judged, err := lockspec.Inspect(e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	err = lockspec.Unlock(context.Background(), e.fsys, target, judged, false, fast(m.Spawn()))
	wantCode(t, "an unlock of a live holder without force", err, "lock_refused", nil)

	if err := os.Remove(e.path(lockP)); err != nil { // forced out
		t.Fatal(err)
	}
	err = h.Commit([]byte("[]"))
	wantCode(t, "a commit under a lost lock", err, "lock_lost", lockspec.ErrLockLost)
	_ = h.Release()

	err = lockspec.Unlock(context.Background(), e.fsys, target, judged, true, fast(m.Spawn()))
	wantCode(t, "an unlock --force of a lock gone since it was read", err, "lock_changed", lockspec.ErrLockChanged)

	for _, c := range []struct {
		err    error
		code   policy.Code
		target error
	}{
		{lockspec.ErrTimeout, "lock_acquire_timeout", lockspec.ErrTimeout},
		{&lockspec.TimeoutError{}, "lock_acquire_timeout", lockspec.ErrTimeout},
		{lockspec.ErrLockLost, "lock_lost", lockspec.ErrLockLost},
		{lockspec.ErrLockChanged, "lock_changed", lockspec.ErrLockChanged},
		{lockspec.ErrNotALock, "lock_unreadable", lockspec.ErrNotALock},
		{&lockspec.RefusedError{}, "lock_refused", nil},
		{&lockspec.BusyError{}, "lock_busy", nil},
		{&lockspec.NotSyncedError{Name: "f", Err: errors.New("EIO")}, "lock_not_synced", nil},
	} {
		wantCode(t, fmt.Sprintf("%T", c.err), c.err, c.code, c.target)
	}
}
