package lockspec_test

import (
	"context"
	"path"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// On the FUSE model, a release of a directory lock whose marker a waiter
// holds open (a judge's read) sees the marker renamed to .fuse_hidden*
// inside the moved directory, so its rmdir fails; it waits for that name
// to go (the waiter's handle closed, here at the release's first look at
// the directory after the marker's removal) and then removes the directory: nothing is left beside
// the guarded file.
func TestDirReleaseAwaitsAFuseHiddenMarker(t *testing.T) {
	e := newEstate(t, fsClass{"dirs", func(f vfs.FS) vfs.FS { return nolinkfs.New(f, syscall.EPERM) }})
	fuse := fusemodel.New(e.fsys)
	ffs := faultfs.New(fuse)
	m := locktest.NewMachine("host-a")
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	if !h.Directory() {
		t.Fatal("the hold is not a directory lock")
	}
	inside, err := ffs.ReadDir(lockP)
	if err != nil || len(inside) != 1 {
		t.Fatalf("the lock directory holds %v (%v); want its marker", inside, err)
	}
	marker := inside[0].Name()
	// The waiter opens the marker once the release has moved the lock
	// aside (it read the lock's name a moment before), and closes it when
	// the release first looks into the moved directory after its rmdir.
	var waiter vfs.File
	var closeOnce sync.Once
	closeWaiter := func() {
		closeOnce.Do(func() {
			if waiter != nil {
				waiter.Close()
			}
		})
	}
	ffs.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename && ev.Name == lockP && ev.Err == nil && waiter == nil {
			f, err := fuse.OpenFile(path.Join(ev.NewName, marker), vfs.ReadFlags, 0)
			if err != nil {
				t.Errorf("opening the moved marker: %v", err)
				return nil
			}
			waiter = f
		}
		return nil
	})
	removed := false // the marker's removal is done: the waiter's handle made it hidden
	ffs.Before(func(ev faultfs.Event) error {
		switch {
		case ev.Op == faultfs.OpRemove && path.Base(ev.Name) == marker:
			removed = true
		case ev.Op == faultfs.OpReadDir && removed && strings.Contains(ev.Name, ".lock.broken-"):
			closeWaiter()
		}
		return nil
	})
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	hidden := waiter != nil
	t.Logf("hidden names made: %q", fuse.Hidden())
	closeWaiter()
	if !hidden {
		t.Fatal("the release moved no lock aside for the waiter to open")
	}
	e.onlyTarget(t, false)
}
