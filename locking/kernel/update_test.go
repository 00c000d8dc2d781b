package kernel

import (
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestUpdateCommits: the change lands through a synced temp file renamed
// over the file, then a folder sync, and the lock is free after.
func TestUpdateCommits(t *testing.T) {
	fsys, _ := newFS(t)
	var seen [][]byte
	for range 2 {
		if err := Update(t.Context(), fsys, "f", Options{}, func(old []byte) ([]byte, error) {
			seen = append(seen, old)
			return append(old, 'x'), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if seen[0] != nil || string(seen[1]) != "x" {
		t.Errorf("fn saw %q", seen)
	}
	if data, _, _ := vfs.ReadFile(fsys, "f", 0); string(data) != "xx" {
		t.Errorf("f = %q", data)
	}
	if s, r, d := fsys.Calls(faultfs.OpSync, "f.tmp"), fsys.Calls(faultfs.OpRename, "f.tmp"), fsys.Calls(faultfs.OpSync, "."); s != 2 || r != 2 || d != 2 {
		t.Errorf("temp syncs %d, renames %d, folder syncs %d; want 2 each", s, r, d)
	}
	if rec := readLock(t, fsys, "f", layoutInLock); rec.ReleasedAt == "" {
		t.Errorf("record after Update %+v", rec)
	}
	mustAcquire(t, fsys, "f", Options{Policy: policy.SingleFlight})
}

// TestUpdateFailures: fn's error writes nothing; a failed write or sync
// of the temp file leaves the file as it was and no temp file.
func TestUpdateFailures(t *testing.T) {
	fsys, _ := newFS(t)
	boom := errors.New("boom")
	if err := Update(t.Context(), fsys, "f", Options{}, func([]byte) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("fn's error: %v", err)
	}
	if _, err := fsys.Stat("f"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("fn failed, f: %v", err)
	}
	for _, op := range []faultfs.Op{faultfs.OpWrite, faultfs.OpSync, faultfs.OpRename} {
		fsys.Fail(faultfs.Rule{Op: op, Match: "f.tmp", Err: syscall.EIO, Times: 1})
		if err := Update(t.Context(), fsys, "f", Options{}, func([]byte) ([]byte, error) { return []byte("new"), nil }); !errors.Is(err, syscall.EIO) {
			t.Errorf("%v: err = %v", op, err)
		}
		if _, err := fsys.Stat("f"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v failed, f: %v", op, err)
		}
		if _, err := fsys.Stat("f.tmp"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v failed, f.tmp: %v", op, err)
		}
	}
}

// TestUpdateWaitsLikeAcquire: Update under a held lock times out typed.
func TestUpdateWaitsLikeAcquire(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	err := Update(t.Context(), fsys, "f", Options{Deadline: 10 * time.Millisecond}, func(b []byte) ([]byte, error) { return b, nil })
	asTimeout(t, err)
}
