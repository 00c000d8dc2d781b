package lockspec_test

// On the FUSE model (vfs/vfstest/fusemodel; docs/filesystems.md), with no
// mount: a file removed or renamed over while a handle has it open stays as
// .fuse_hidden* until that handle is closed.

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// The lock closes every handle of its own before it renames or removes a
// file: a whole write, a break of a dead lock, the sweep of dead leftovers,
// a release that puts back a newer lock, and an unlock never leave a
// .fuse_hidden name on a FUSE volume.
func TestOwnHandlesClosedBeforeRenameOrRemove(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		fsys := fusemodel.New(e.fsys)
		m := locktest.NewMachine("host-a")
		ctx := context.Background()
		write := func(rec string) {
			t.Helper()
			o := fast(m.Spawn())
			o.Timeout = lockspec.NoWait
			if err := lockspec.Update(ctx, fsys, target, appendRecord(rec), o); err != nil {
				t.Fatalf("writing %s: %v", rec, err)
			}
		}
		write("first")
		write("second")

		deadLock(t, e, m) // broken by the next write
		write("after-break")

		dead := m.Spawn()
		dead.Kill()
		h := lockspec.HostHash("host-a")
		for _, name := range []string{".pending-", ".broken-"} {
			e.writeRaw(t, lockP+name+h+"-"+strconv.Itoa(dead.PID())+"-0123456789abcdef01234567", []byte("{}"))
		}
		e.writeRaw(t, target+".tmp-"+h+"-"+strconv.Itoa(dead.PID())+"-0123456789abcdef01234567", []byte("{}"))
		write("after-sweep")

		// A release that finds a newer lock under the name puts it back.
		old := m.Spawn()
		h1, err := lockspec.Acquire(ctx, fsys, target, fast(old))
		if err != nil {
			t.Fatal(err)
		}
		held, err := lockspec.Inspect(fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		if err := lockspec.Unlock(ctx, fsys, target, held, true, fast(m.Spawn())); err != nil {
			t.Fatalf("unlock --force: %v", err)
		}
		h2, err := lockspec.Acquire(ctx, fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		if err := h1.Release(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("the forced holder's release: %v, want ErrLockLost (the newer lock put back)", err)
		}
		if err := h2.Commit([]byte(`["first","second","after-break","after-sweep","newer"]`)); err != nil {
			t.Fatalf("the newer holder's commit after the put-back: %v", err)
		}
		if err := h2.Release(); err != nil {
			t.Fatal(err)
		}

		// unlock of a dead holder runs the break's steps.
		deadLock(t, e, m)
		judged, err := lockspec.Inspect(fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		if err := lockspec.Unlock(ctx, fsys, target, judged, false, fast(m.Spawn())); err != nil {
			t.Fatalf("unlock of a dead holder: %v", err)
		}

		if hidden := fsys.Hidden(); len(hidden) > 0 {
			t.Fatalf("the lock renamed or removed a file it still had open: FUSE would show %q", hidden)
		}
		e.wantRecords(t, "first", "second", "after-break", "after-sweep", "newer")
		e.onlyTarget(t, true)
	})
}
