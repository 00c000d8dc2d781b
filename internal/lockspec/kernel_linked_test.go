//go:build unix

package lockspec_test

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// linkedEstate is a fresh estate with hard links whose kernel locks are
// shared by every link of a file (a temp dir: ext4, tmpfs), a faultfs over
// it, and the count of links made to a probe name, with what this process
// learned of linked kernel locks forgotten, now and at the test's end.
func linkedEstate(t *testing.T) (*estate, *faultfs.FS, *atomic.Int32) {
	e := newEstate(t, classes[0])
	lockspec.ForgetLinkedKernelLock()
	t.Cleanup(lockspec.ForgetLinkedKernelLock)
	ffs := faultfs.New(e.fsys)
	var probes atomic.Int32
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpLink && strings.Contains(ev.NewName, ".probe-") {
			probes.Add(1)
		}
		return nil
	})
	return e, ffs, &probes
}

// holdOnce acquires and releases the lock through ffs, returning the
// record the hold published.
func (e *estate) holdOnce(t *testing.T, ffs *faultfs.FS) []byte {
	t.Helper()
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(nil))
	if err != nil {
		t.Fatal(err)
	}
	lock := e.readRaw(t, lockP)
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	return lock
}

// Whether a kernel lock taken through one link of a file is every link's
// is learned once per device and process: the first hold links its
// pending file to a probe name and claims the kernel lock it learned is
// shared; a later hold on that device asks nothing and claims it too.
func TestLinkedKernelLockLearnedOncePerDevice(t *testing.T) {
	e, ffs, probes := linkedEstate(t)
	for i := range 2 {
		if lock := e.holdOnce(t, ffs); !bytes.Contains(lock, []byte(`"kernelLock"`)) {
			t.Errorf("hold %d claims no kernel lock on a volume whose links share it: %s", i, lock)
		}
	}
	if got := probes.Load(); got != 1 {
		t.Errorf("%d probe links made for two holds on one device; want 1", got)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A probe name that cannot be opened proves nothing of the volume: the
// record claims no kernel lock, though this volume's links share it.
func TestLinkedKernelLockUnprovedWhenItsProbeCannotBeOpened(t *testing.T) {
	e, ffs, _ := linkedEstate(t)
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpOpenFile && strings.Contains(ev.Name, ".probe-") {
			return syscall.EACCES
		}
		return nil
	})
	if lock := e.holdOnce(t, ffs); bytes.Contains(lock, []byte(`"kernelLock"`)) {
		t.Errorf("the record claims a kernel lock its probe could not try: %s", lock)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}

// A probe name that cannot be removed leaves the answer unlearned: that
// hold claims no kernel lock, and the next one on the device probes again
// (and, its probe removed, claims it).
func TestLinkedKernelLockNotLearnedWhenItsProbeStays(t *testing.T) {
	e, ffs, probes := linkedEstate(t)
	var refused atomic.Bool
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRemove && strings.Contains(ev.Name, ".probe-") && refused.CompareAndSwap(false, true) {
			return syscall.EBUSY
		}
		return nil
	})
	if lock := e.holdOnce(t, ffs); bytes.Contains(lock, []byte(`"kernelLock"`)) {
		t.Errorf("the record claims a kernel lock though its probe's answer was not learned: %s", lock)
	}
	if lock := e.holdOnce(t, ffs); !bytes.Contains(lock, []byte(`"kernelLock"`)) {
		t.Errorf("the next hold claims no kernel lock: %s", lock)
	}
	if got := probes.Load(); got != 2 {
		t.Errorf("%d probe links made; want the next hold to probe again (2)", got)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left after the next hold (the stuck probe name is its own leftover to sweep): %q", got)
	}
}
