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

// On a FUSE volume with hard links (ntfs-3g) a pending file and its
// kernel lock's handle are closed before its name goes: an acquire that
// waits and times out, and one that ends its wait by a link(), leave no
// .fuse_hidden name. Kills "remove the pending file's name while its
// kernel lock is open" and "never close the pending file".
func TestPendingLeavesNoHiddenName(t *testing.T) {
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
	receive(t, refused, patience, "the waiter's refused link()")

	opts.Timeout = 10 * time.Second
	done := acquireAsync(context.Background(), ffs, opts)
	waiting := onWait(ffs)
	receive(t, waiting, patience, "the waiter's wait")
	got := handOver(t, holder, done)
	if err := got.Release(); err != nil {
		t.Fatal(err)
	}
	if hidden := fsys.Hidden(); len(hidden) > 0 {
		t.Fatalf("a pending file was removed while open: FUSE would show %q", hidden)
	}
	e.onlyTarget(t, false)
}
