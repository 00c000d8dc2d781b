package lockspec_test

import (
	"context"
	"errors"
	"runtime"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// Some volumes refuse an fsync of a directory (docs/filesystems.md): a
// commit there lands and reports no error, since the volume cannot sync its
// folder; any other error of that sync is a *NotSyncedError (the commit has
// landed: never repeat it).
func TestCommitWhereDirectorySyncIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows cannot sync a directory: vfs.SyncDir takes every error there as a refusal")
	}
	eachClass(t, func(t *testing.T, e *estate) {
		for _, errno := range []syscall.Errno{syscall.EINVAL, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.EBADF, syscall.EIO} {
			ffs := faultfs.New(e.fsys)
			ffs.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: "d", Err: errno})
			o := fast(locktest.NewMachine("host-a").Spawn())
			err := lockspec.Update(context.Background(), ffs, target, appendRecord(errno.Error()), o)
			if n := ffs.Calls(faultfs.OpSync, "d"); n != 1 {
				t.Fatalf("%v: the folder was synced %d times, want once", errno, n)
			}
			var ns *lockspec.NotSyncedError
			if errno == syscall.EIO {
				if !errors.As(err, &ns) || !errors.Is(err, syscall.EIO) {
					t.Fatalf("folder sync failing with EIO: %v, want a *NotSyncedError", err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("folder sync refused with %v: %v, want the commit landed with no error", errno, err)
			}
		}
		e.wantRecords(t, syscall.EINVAL.Error(), syscall.ENOTSUP.Error(), syscall.EOPNOTSUPP.Error(), syscall.EBADF.Error(), syscall.EIO.Error())
		e.onlyTarget(t, true)
	})
}
