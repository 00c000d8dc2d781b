package lockspec_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// With the real host, whose writers hold kernel locks on the files they
// make, no handle of the lock's own is open when it removes or renames
// over a file: writes, a break of a dead holder's lock (a real dead pid)
// and the sweep of dead leftovers leave no .fuse_hidden name on the FUSE
// model of exfat-fuse (no hard links). With hard links the model cannot
// stand for ntfs-3g: its kernel keeps a lock per name, so no lock there
// claims one and the pending file's handle is closed before its name goes
// (linkedKernelLock), where the model, over this volume's flock shared by
// links, claims and removes the name with its kernel lock's handle open,
// as ext4 does without harm.
func TestKernelLockHandlesClosedBeforeRemove(t *testing.T) {
	for _, c := range append(classes[1:], dirClass) {
		t.Run(c.name, func(t *testing.T) { kernelHandlesClosed(t, newEstate(t, c)) })
	}
}

func kernelHandlesClosed(t *testing.T, e *estate) {
	{
		fsys := fusemodel.New(e.fsys)
		ctx := context.Background()
		host := lockspec.OSHost()
		write := func(rec string) {
			t.Helper()
			o := fast(nil)
			o.Timeout = lockspec.NoWait
			if err := lockspec.Update(ctx, fsys, target, appendRecord(rec), o); err != nil {
				t.Fatalf("writing %s: %v", rec, err)
			}
		}
		write("first")
		write("second")
		dead := locktest.DeadPID(t)
		e.writeRaw(t, lockP, lockJSON(dead, host.Hostname(), true, "deaddeaddeaddeaddeaddead", time.Now()))
		write("after-break")
		h := lockspec.HostHash(host.Hostname())
		for _, name := range []string{".pending-", ".broken-"} {
			e.writeRaw(t, lockP+name+h+"-"+strconv.Itoa(dead)+"-0123456789abcdef01234567", []byte("{}"))
		}
		e.writeRaw(t, target+".tmp-"+h+"-"+strconv.Itoa(dead)+"-0123456789abcdef01234567", []byte("{}"))
		write("after-sweep")
		if hidden := fsys.Hidden(); len(hidden) > 0 {
			t.Fatalf("a file was removed or renamed over while a handle had it open: FUSE would show %q", hidden)
		}
		e.wantRecords(t, "first", "second", "after-break", "after-sweep")
		e.onlyTarget(t, true)
	}
}
