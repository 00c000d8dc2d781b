package lockspec_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// On a FUSE volume with hard links (ntfs-3g) the pending file a waiter
// keeps open through its wait is closed before its name goes: an acquire
// that times out with it, and one that ends its wait by linking it, leave
// no .fuse_hidden name.
func TestKeptPendingLeavesNoHiddenName(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	fsys := fusemodel.New(e.fsys)
	ffs := faultfs.New(fsys)
	refused := firstLinkRefused(ffs)

	opts := fast(m.Spawn())
	opts.Timeout = 30 * time.Millisecond
	if _, err := lockspec.Acquire(context.Background(), ffs, target, opts); !errors.Is(err, lockspec.ErrTimeout) {
		t.Fatalf("err = %v; want a timeout", err)
	}
	receive(t, refused, patience, "the waiter's refused link()") // it kept a pending file through its wait

	opens, writes := ffs.Calls(faultfs.OpOpenFile, pendingGlob), ffs.Calls(faultfs.OpWrite, pendingGlob)
	opts.Timeout = 10 * time.Second
	done := acquireAsync(context.Background(), ffs, opts)
	waiting := onWait(ffs)
	receive(t, waiting, patience, "the waiter's wait")
	got := handOver(t, holder, done)
	if err := got.Release(); err != nil {
		t.Fatal(err)
	}
	if o, w := ffs.Calls(faultfs.OpOpenFile, pendingGlob)-opens, ffs.Calls(faultfs.OpWrite, pendingGlob)-writes; o != 1 || w < 2 {
		t.Errorf("%d pending files created and %d writes for an acquire that waited; the case wants one, rewritten in place", o, w)
	}
	if hidden := fsys.Hidden(); len(hidden) > 0 {
		t.Fatalf("a pending file was removed while open: FUSE would show %q", hidden)
	}
	e.onlyTarget(t, false)
}
