//go:build unix

package lockspec_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// A sweep that judged a staging directory of a pid gone as it sees it (an
// owner of another pid namespace, staging its lock) holds the marker's
// kernel lock from its try through the marker's move out: the owner,
// taking that lock just after its create, is refused it while the sweep
// is between its judgement and its removal, so it never goes on with a
// marker about to go (it finds the name gone and stages again). Once the
// sweep is done the directory is gone and nothing is left.
func TestSweepHoldsAStagedMarkerThroughItsRemoval(t *testing.T) {
	self := realIdentity(t)
	e := dirEstate(t)
	_, _, pidGone := realJudges(t, self)
	stage := "d/log.json.lock.staged-" + lockspec.HostHash(hostname(t)) + "-" + strconv.Itoa(os.Getpid()) + "-0123456789abcdef01234567"
	if err := os.Mkdir(e.path(stage), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := stage + "/" + "aaaaaaaaaaaaaaaaaaaaaaaa.json"
	e.writeRaw(t, marker, nil) // made, not yet held, not yet written
	judged, resume := make(chan struct{}), make(chan struct{})
	o := dirNoWait(pidGone)
	pauseAt(&o, lockspec.StepSweepJudged, func() { close(judged) }, resume)
	done := make(chan error, 1)
	var h *lockspec.Hold
	go func() {
		var err error
		h, err = lockspec.Acquire(context.Background(), e.fsys, target, o)
		done <- err
	}()
	select {
	case <-judged:
	case err := <-done:
		t.Fatalf("the sweeper ended (%v) without judging the staging directory", err)
	}
	f, err := e.fsys.OpenFile(marker, vfs.ReadFlags, 0)
	if err != nil {
		close(resume)
		t.Fatal(err)
	}
	err = vfs.TryLock(f, marker)
	f.Close()
	close(resume)
	if err == nil {
		t.Error("the owner was granted its marker's kernel lock while the sweep was between its judgement and the marker's removal")
	}
	if err := <-done; err != nil {
		t.Fatalf("the sweeper's acquire: %v", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// On the FUSE model: a sweep to which a staging directory's owner is gone
// (an owner of another pid namespace) opens its marker and is refused the
// marker's kernel lock, and while its handle is still open the owner drops
// that attempt (a publish that did not land): it removes its marker, which
// the volume keeps as a .fuse_hidden* name in the directory while the
// sweep's handle is open, so its rmdir is refused. Once the sweep closes
// its handle the directory is empty; the sweep removes it then, and
// nothing is left (an R50 run on exFAT left such a directory).
func TestSweepRemovesAStagingItsOwnerDroppedWhileOpen(t *testing.T) {
	self := realIdentity(t)
	e := dirEstate(t)
	fuse := fusemodel.New(e.fsys)
	ffs := faultfs.New(fuse)
	_, _, pidGone := realJudges(t, self)
	stage := "d/log.json.lock.staged-" + lockspec.HostHash(hostname(t)) + "-" + strconv.Itoa(os.Getpid()) + "-0123456789abcdef01234567"
	if err := os.Mkdir(e.path(stage), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := stage + "/" + "aaaaaaaaaaaaaaaaaaaaaaaa.json"
	e.writeRaw(t, marker, nil)
	owner, err := fuse.OpenFile(marker, vfs.ReadFlags, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	if err := vfs.TryLock(owner, marker); err != nil {
		t.Fatalf("the owner's kernel lock: %v", err)
	}
	// The owner drops its attempt just before the sweep closes its handle
	// on the marker: its kernel lock, the marker, then the directory.
	dropped := false
	var rmdirErr error
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op != faultfs.OpClose || ev.Name != marker || dropped {
			return nil
		}
		dropped = true
		owner.Close()
		if err := fuse.Remove(marker); err != nil {
			t.Errorf("the owner's removal of its marker: %v", err)
		}
		rmdirErr = fuse.Remove(stage)
		return nil
	})
	h, err := lockspec.Acquire(context.Background(), ffs, target, dirNoWait(pidGone))
	if err != nil {
		t.Fatalf("the sweeper's acquire: %v", err)
	}
	if !dropped {
		t.Fatal("the sweep closed no handle on the marker")
	}
	if rmdirErr == nil || len(fuse.Hidden()) != 1 {
		t.Fatalf("the owner's rmdir: %v, hidden names %q; want it refused by one hidden name (the model)", rmdirErr, fuse.Hidden())
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}
