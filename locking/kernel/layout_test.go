package kernel

import (
	"errors"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestRecordInTheLockFile: on POSIX the holder's record is the lock
// file's content from the acquisition on, and gains its release time at
// the release.
func TestRecordInTheLockFile(t *testing.T) {
	fsys, _ := newFS(t)
	h := mustAcquire(t, fsys, "f", Options{Agent: "crow", Operation: "board repair", layout: layoutInLock})
	rec := readLock(t, fsys, "f", layoutInLock)
	if rec != h.Record() || rec.PID != os.Getpid() || rec.Agent != "crow" || rec.Operation != "board repair" || rec.Policy != "mutation" || rec.LockID != LockID("f") || rec.ReleasedAt != "" {
		t.Errorf("record %+v, hold says %+v", rec, h.Record())
	}
	if _, err := time.Parse(time.RFC3339Nano, rec.AcquiredAt); err != nil {
		t.Errorf("acquiredAt: %v", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if rec := readLock(t, fsys, "f", layoutInLock); rec.ReleasedAt == "" || rec.AcquiredAt != h.Record().AcquiredAt {
		t.Errorf("released record %+v", rec)
	}
	if _, err := fsys.Stat("f" + sidecarSuffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("POSIX made a sidecar: %v", err)
	}
}

// TestSidecarLayout is the Windows path, through the seam: the record is
// a sidecar replaced by a rename, the lock file stays empty, and a waiter
// reads the holder from the sidecar.
func TestSidecarLayout(t *testing.T) {
	fsys, _ := newFS(t)
	o := Options{Agent: "crow", layout: layoutSidecar}
	h := mustAcquire(t, fsys, "f", o)
	if data, _, err := vfs.ReadFile(fsys, "f.lock", 0); err != nil || len(data) != 0 {
		t.Errorf("the lock file holds %q, %v; want it empty", data, err)
	}
	if n := fsys.Calls(faultfs.OpRename, "f.lock.holder.json"); n != 1 {
		t.Errorf("%d renames onto the sidecar, want 1", n)
	}
	if rec := readLock(t, fsys, "f", layoutSidecar); rec != h.Record() {
		t.Errorf("sidecar %+v, hold %+v", rec, h.Record())
	}
	o.Deadline = 50 * time.Millisecond
	te := asTimeout(t, acquireWithin(t, fsys, "f", o).err)
	if te.HolderErr != nil || te.Holder != h.Record() {
		t.Errorf("waiter read holder %+v (%v)", te.Holder, te.HolderErr)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if rec := readLock(t, fsys, "f", layoutSidecar); rec.ReleasedAt == "" {
		t.Errorf("released sidecar %+v", rec)
	}
	if _, err := fsys.Stat("f" + sidecarTmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temp sidecar left: %v", err)
	}
	// A later owner overwrites the sidecar.
	h2 := mustAcquire(t, fsys, "f", o)
	if rec := readLock(t, fsys, "f", layoutSidecar); rec.ReleasedAt != "" || rec.AcquiredAt != h2.Record().AcquiredAt {
		t.Errorf("the next owner's sidecar %+v", rec)
	}
}

func TestSystemLayout(t *testing.T) {
	want := layoutInLock
	if os.PathSeparator == '\\' {
		want = layoutSidecar
	}
	if got := layoutSystem.resolve(); got != want {
		t.Errorf("system layout %d, want %d", got, want)
	}
}

// TestRecordWriteFailureReleases: a holder that cannot write its record
// gives the lock up and says why.
func TestRecordWriteFailureReleases(t *testing.T) {
	fsys, _ := newFS(t)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpWrite, Match: "f.lock", Times: 1})
	if _, err := Acquire(t.Context(), fsys, "f", Options{}); err == nil || !contains(err.Error(), "holder record") {
		t.Fatalf("err = %v", err)
	}
	mustAcquire(t, fsys, "f", Options{Deadline: time.Millisecond})
}

// TestNeverRemovesTheLockFile runs every step (acquire, release, update,
// timeout, single_flight, the incident log, both layouts) and checks the
// lock file was never removed, renamed or replaced.
func TestNeverRemovesTheLockFile(t *testing.T) {
	fsys, _ := newFS(t)
	for _, l := range []layout{layoutInLock, layoutSidecar} {
		o := Options{layout: l, Deadline: 30 * time.Millisecond}
		h := mustAcquire(t, fsys, "f", o)
		key := lockKey(t, fsys, "f")
		asTimeout(t, acquireWithin(t, fsys, "f", o).err)
		o.Policy = policy.SingleFlight
		if err := acquireWithin(t, fsys, "f", o).err; !errors.Is(err, ErrHeld) {
			t.Fatal(err)
		}
		h.Release()
		if err := Update(t.Context(), fsys, "f", o, func(old []byte) ([]byte, error) { return append(old, 'x'), nil }); err != nil {
			t.Fatal(err)
		}
		if lockKey(t, fsys, "f") != key {
			t.Errorf("layout %d: the lock file was replaced", l)
		}
	}
	if n := fsys.Calls(faultfs.OpRemove, "*.lock") + fsys.Calls(faultfs.OpRename, "*.lock"); n != 0 {
		t.Errorf("%d removes or renames of a lock file", n)
	}
}
