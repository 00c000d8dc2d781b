package lockspec_test

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// An error from the UpdateFunc ends the update with nothing written and the
// lock released; a missing file reads as exists=false.
func TestUpdateFuncErrorWritesNothing(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		boom := errors.New("boom")
		var sawExists = true
		err := lockspec.Update(context.Background(), e.fsys, target, func(cur []byte, exists bool) ([]byte, error) {
			sawExists = exists
			return nil, boom
		}, fast(nil))
		if !errors.Is(err, boom) || sawExists {
			t.Fatalf("err = %v, exists = %v", err, sawExists)
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
		if _, err := lockspec.Inspect(e.fsys, target, fast(nil)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Inspect after release: %v", err)
		}
	})
}

// The fence passes a lock with this hold's very bytes without parsing or
// judging it (no liveness check), passes one that carries its token in
// other bytes, and refuses one that carries another token (spec:
// Guarantees, 1).
func TestFenceChecksTheToken(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		p := m.Spawn()
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(p))
		if err != nil {
			t.Fatal(err)
		}
		defer h.Release()
		asked := m.Asked(p.PID())
		if err := h.Fence(); err != nil {
			t.Fatalf("Fence on its own lock: %v", err)
		}
		if n := m.Asked(p.PID()) - asked; n != 0 {
			t.Errorf("the fence on its own bytes asked about the holder %d times, want none", n)
		}
		e.writeRaw(t, lockP, lockJSON(p.PID(), "host-a", true, h.Token(), time.Now().Add(time.Hour)))
		if err := h.Fence(); err != nil {
			t.Errorf("Fence on its token in other bytes: %v, want nil", err)
		}
		e.writeRaw(t, lockP, lockJSON(p.PID(), "host-a", true, "ffffffffffffffffffffffff", time.Now()))
		if err := h.Fence(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Errorf("Fence on another token = %v, want ErrLockLost", err)
		}
		e.writeRaw(t, lockP, []byte("not json"))
		if err := h.Fence(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Errorf("Fence on an unreadable lock = %v, want ErrLockLost", err)
		}
	})
}

// A fence that cannot read the lock must refuse the commit. Kills
// "fence-readerr-ok".
func TestFenceReadErrorRefuses(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		opts := fast(nil)
		opts.Timeout = lockspec.NoWait
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepCommitTempWritten {
				ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "log.json.lock", Err: syscall.EIO, Times: 1})
			}
		})
		err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), opts)
		if err == nil || !errors.Is(err, syscall.EIO) {
			t.Fatalf("err = %v; want the fence's read error", err)
		}
		if e.exists(target) {
			t.Fatal("committed although the fence could not read the lock")
		}
	})
}
