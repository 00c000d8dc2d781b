package osfs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// fakeClock is the retry's clock: sleep advances it, and counts.
type fakeClock struct {
	t      time.Time
	sleeps int
}

func (c *fakeClock) now() time.Time        { return c.t }
func (c *fakeClock) sleep(d time.Duration) { c.t = c.t.Add(d); c.sleeps++ }

// retrying returns the retry of Windows' Rename over a faultfs of a real
// root, with a fake clock; the rules of the faultfs are the other process's
// handles.
func retrying(t *testing.T) (renameRetry, *faultfs.FS, *fakeClock) {
	t.Helper()
	o, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	for _, name := range []string{"lock", "other"} {
		if err := vfs.WriteFileExclusive(o, name, []byte(name), 0o644, false); err != nil {
			t.Fatal(err)
		}
	}
	ffs := faultfs.New(o)
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	r := renameRetry{
		rename: ffs.Rename,
		absent: func(name string) bool {
			_, err := ffs.Lstat(name)
			return errors.Is(err, fs.ErrNotExist)
		},
		transient: sharingError, now: clock.now, sleep: clock.sleep,
		window: RenameRetryWindow, poll: renameRetryPoll,
	}
	return r, ffs, clock
}

// A rename to an absent name that fails with a sharing error (EACCES,
// EPERM, EBUSY: another process has the file open) is tried again until it
// goes through.
func TestRenameRetriesSharingErrors(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EPERM, syscall.EBUSY} {
		r, ffs, clock := retrying(t)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "lock", Err: errno, Times: 3})
		if err := r.do("lock", "lock.broken-1"); err != nil {
			t.Fatalf("%v three times, then free: %v; want the rename done", errno, err)
		}
		if n := ffs.Calls(faultfs.OpRename, "lock"); n != 4 || clock.sleeps != 3 {
			t.Errorf("%v: %d renames, %d waits; want 4 and 3", errno, n, clock.sleeps)
		}
		if _, err := ffs.Lstat("lock.broken-1"); err != nil {
			t.Errorf("%v: the new name after the rename: %v", errno, err)
		}
	}
}

// A sharing error that lasts past the window returns the first error, after
// tries spread over the whole window.
func TestRenameRetryGivesUpAtTheDeadline(t *testing.T) {
	r, ffs, clock := retrying(t)
	first := &os.LinkError{Op: "rename", Old: "lock", New: "lock.broken-1", Err: syscall.EACCES}
	ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "lock", Err: first, Times: 1})
	ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "lock", Err: syscall.EBUSY})
	start := clock.t
	err := r.do("lock", "lock.broken-1")
	if err != first {
		t.Fatalf("after the window: %v; want the first error returned as it was", err)
	}
	if waited := clock.t.Sub(start); waited < RenameRetryWindow || waited > RenameRetryWindow+renameRetryPoll {
		t.Errorf("gave up after %v; want the window, %v", waited, RenameRetryWindow)
	}
	if want := int(RenameRetryWindow / renameRetryPoll); clock.sleeps != want {
		t.Errorf("%d waits; want %d (one poll apart over the window)", clock.sleeps, want)
	}
	if _, err := ffs.Lstat("lock"); err != nil {
		t.Errorf("the old name after a refused rename: %v", err)
	}
}

// No retry when the new name exists (its error may be permanent), nor for
// an error that is no sharing error.
func TestRenameRetryOnlySharingErrorsToAnAbsentName(t *testing.T) {
	for _, tt := range []struct {
		newname string
		errno   syscall.Errno
	}{
		{"other", syscall.EACCES}, // the new name exists
		{"lock.broken-1", syscall.EXDEV},
		{"lock.broken-1", syscall.ENOENT},
		{"lock.broken-1", syscall.EIO},
	} {
		r, ffs, clock := retrying(t)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "lock", Err: tt.errno, Times: 1})
		if err := r.do("lock", tt.newname); !errors.Is(err, tt.errno) {
			t.Errorf("rename to %s failing with %v: %v; want that error at once", tt.newname, tt.errno, err)
		}
		if n := ffs.Calls(faultfs.OpRename, "lock"); n != 1 || clock.sleeps != 0 {
			t.Errorf("rename to %s failing with %v: %d tries, %d waits; want 1 and none", tt.newname, tt.errno, n, clock.sleeps)
		}
	}
}

// The new name appearing while the retry waits ends it with the error of
// that try.
func TestRenameRetryStopsWhenTheNewNameAppears(t *testing.T) {
	r, ffs, clock := retrying(t)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "lock", Err: syscall.EACCES})
	tries := 0
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename {
			if tries++; tries == 2 {
				return vfs.WriteFileExclusive(ffs.Unwrap(), "lock.broken-1", nil, 0o644, false)
			}
		}
		return nil
	})
	if err := r.do("lock", "lock.broken-1"); !errors.Is(err, syscall.EACCES) {
		t.Fatalf("%v; want EACCES", err)
	}
	if tries != 2 || clock.sleeps != 1 {
		t.Errorf("%d tries, %d waits; want 2 and 1", tries, clock.sleeps)
	}
}
