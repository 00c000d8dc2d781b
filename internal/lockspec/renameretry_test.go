package lockspec_test

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// refuseStagedRenames makes the first n renames of a staging directory
// fail with EPERM (n < 0: every one), as Windows refuses one for a moment
// while an antivirus scans it; it returns how many were tried.
func refuseStagedRenames(ffs *faultfs.FS, n int) *int {
	tried := 0
	beforeStaged(ffs, faultfs.OpRename, func(faultfs.Event) error {
		tried++
		if n < 0 || tried <= n {
			return syscall.EPERM
		}
		return nil
	})
	return &tried
}

// isEPERM is a transientRename that, as Windows' does for access denied,
// reads EPERM as passing by itself.
func isEPERM(err error) bool { return errors.Is(err, syscall.EPERM) }

// On Windows a rename refused for a moment (EPERM, EACCES, EBUSY) while the
// lock name is absent is tried again within the acquisition's deadline:
// the directory publish lands on the third try, and nothing is left.
func TestDirPublishRetriesATransientRename(t *testing.T) {
	defer lockspec.SetTransientRename(isEPERM)()
	e, ffs := dirFaults(t)
	tried := refuseStagedRenames(ffs, 2)
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(locktest.NewMachine("host-a").Spawn()))
	if err != nil {
		t.Fatalf("Acquire with two refused renames: %v", err)
	}
	if *tried != 3 {
		t.Errorf("the staging directory's rename was tried %d times; want 3", *tried)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A rename that stays refused is tried until the deadline, then the
// acquisition fails with the original error (the first: EPERM, though the
// later tries got EACCES), and its staging directory goes.
func TestDirPublishReturnsTheRenameErrorAfterTheDeadline(t *testing.T) {
	defer lockspec.SetTransientRename(func(err error) bool {
		return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES)
	})()
	e, ffs := dirFaults(t)
	tried := refuseStagedRenames(ffs, -1)
	beforeStaged(ffs, faultfs.OpRename, func(faultfs.Event) error {
		if *tried > 1 {
			return syscall.EACCES // a later refusal, of another kind
		}
		return nil
	})
	o := fast(locktest.NewMachine("host-a").Spawn())
	o.Timeout = 100 * time.Millisecond
	start := time.Now()
	_, err := lockspec.Acquire(context.Background(), ffs, target, o)
	if !errors.Is(err, syscall.EPERM) {
		t.Fatalf("Acquire with every rename refused: %v; want the first refusal, EPERM", err)
	}
	if took := time.Since(start); took < o.Timeout {
		t.Errorf("it gave up after %v, before its deadline (%v)", took, o.Timeout)
	}
	if *tried < 2 {
		t.Errorf("the rename was tried %d times; want it tried again", *tried)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left after the failed acquisition: %q", got)
	}
}

// Where no rename error passes by itself (every system but Windows), a
// refused rename fails the acquisition at once, tried once.
func TestDirPublishDoesNotRetryElsewhere(t *testing.T) {
	defer lockspec.SetTransientRename(func(error) bool { return false })()
	_, ffs := dirFaults(t)
	tried := refuseStagedRenames(ffs, 1)
	_, err := lockspec.Acquire(context.Background(), ffs, target, fast(locktest.NewMachine("host-a").Spawn()))
	if !errors.Is(err, syscall.EPERM) || *tried != 1 {
		t.Fatalf("Acquire: %v after %d tries; want EPERM after one", err, *tried)
	}
}

// Windows refuses a directory renamed onto one that exists with EPERM,
// not EEXIST: with the lock name taken, that is a held lock, waited on
// and timed out on naming its holder, never an error of the rename and
// never tried again as a transient one.
func TestDirPublishReadsEPERMOntoAnExistingLockAsHeld(t *testing.T) {
	defer lockspec.SetTransientRename(isEPERM)()
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	o := dirNoWait(m.Spawn())
	atStagedOnce(&o, func() { // the holder takes the lock after the contender looked
		holder, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { holder.Release() })
	})
	ffs := faultfs.New(e.fsys)
	refuseStagedRenames(ffs, -1)
	_, err := lockspec.Acquire(context.Background(), ffs, target, o)
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive {
		t.Fatalf("Acquire onto a held directory lock refused with EPERM: %v; want a timeout naming the live holder", err)
	}
	if s := e.staged(t); len(s) != 0 {
		t.Errorf("staging directories left: %q", s)
	}
}

// An acquisition whose context ends while its publish's rename is being
// refused for a moment stops trying at once with the context's error,
// well before its deadline, and leaves nothing.
func TestDirPublishStopsRetryingWhenCancelled(t *testing.T) {
	defer lockspec.SetTransientRename(isEPERM)()
	e, ffs := dirFaults(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tried := 0
	beforeStaged(ffs, faultfs.OpRename, func(faultfs.Event) error {
		if tried++; tried == 2 {
			cancel()
		}
		return syscall.EPERM
	})
	o := fast(locktest.NewMachine("host-a").Spawn())
	o.Timeout = 3 * time.Second // the context ends the tries long before
	_, err := lockspec.Acquire(ctx, ffs, target, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Acquire cancelled during refused renames: %v; want context.Canceled", err)
	}
	if tried != 2 {
		t.Errorf("the rename was tried %d times; want no try after the cancel (2)", tried)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left after the cancelled acquisition: %q", got)
	}
}

// A release that moved aside another writer's directory lock (its own was
// broken and replaced meanwhile) puts it back by the no-replace rename;
// a put-back refused for a moment (Windows) is tried again within its
// bound, and the other writer's lock is back, whole, at the lock name.
func TestDirPutBackRetriesATransientRename(t *testing.T) {
	defer lockspec.SetTransientRename(isEPERM)()
	e, ffs := dirFaults(t)
	m := locktest.NewMachine("host-a")
	a, err := lockspec.Acquire(context.Background(), ffs, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(e.path(lockP), e.path("broken-by-hand")); err != nil {
		t.Fatal(err)
	}
	b, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename && ev.NewName == lockP && refused == 0 {
			refused++
			return syscall.EPERM
		}
		return nil
	})
	if err := a.Release(); !errors.Is(err, lockspec.ErrLockLost) {
		t.Errorf("the release of a replaced lock: %v; want ErrLockLost", err)
	}
	if refused != 1 {
		t.Fatalf("the put-back's rename was refused %d times; want the release to have put a lock back once", refused)
	}
	if err := b.Fence(); err != nil {
		t.Fatalf("the other writer's fence after the put-back: %v; want its lock back, whole", err)
	}
	if err := b.Release(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(e.path("broken-by-hand")); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}
