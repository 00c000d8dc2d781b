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

// On the FUSE model, a release of a directory lock whose marker another
// handle holds open (a waiter's read, or a forced-out holder's kernel
// lock) moves the marker out beside the lock before its rmdir, so the
// moved directory goes at once, whatever that handle does; the marker's
// removal makes a .fuse_hidden* name in the lock's folder, which goes when
// that handle closes, as a file lock's does: nothing is left beside the
// guarded file. The handle stays open until the release has ended.
func TestDirReleaseWithAnOpenMarkerLeavesNoDirectory(t *testing.T) {
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
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	for _, n := range e.ls(t) {
		if strings.Contains(n, ".broken-") && !strings.HasPrefix(n, ".fuse_hidden") {
			if fi, err := fuse.Lstat("d/" + n); err == nil && fi.IsDir() {
				t.Errorf("the moved directory %s is left while the marker is open", n)
			}
		}
	}
	hidden := waiter != nil
	t.Logf("hidden names made: %q", fuse.Hidden())
	closeWaiter()
	if !hidden {
		t.Fatal("the release moved no lock aside for the waiter to open")
	}
	e.onlyTarget(t, false)
}
