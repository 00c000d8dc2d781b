package kernel

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
)

// A file named as one this lock writes for another file is never guarded:
// Acquire and Update refuse it with a *fs.PathError wrapping
// ErrReservedName that says whose name it is, and touch nothing; the
// holder of ok keeps its lock (a single_flight acquire of ok still finds
// it held). Update("ok.lock") would otherwise rename a new file over the
// lock file whose kernel lock the holder keeps.
func TestReservedNamesAreNotGuarded(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "ok", Options{})
	lock, _, err := vfs.ReadFile(fsys, "ok.lock", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, whose string }{
		{"ok.lock", "the lock of ok"},
		{"ok.lock.incidents.jsonl", "a name beside the lock of ok"},
		{"ok.lock.holder.json", "a name beside the lock of ok"},
		{"ok.tmp", "the temp file of Update of ok"},
	} {
		write := func(old []byte) ([]byte, error) { return []byte("x"), nil }
		err := Update(t.Context(), fsys, tc.name, Options{Policy: policy.SingleFlight}, write)
		var pe *fs.PathError
		if !errors.Is(err, ErrReservedName) || !errors.As(err, &pe) || pe.Path != tc.name || !strings.Contains(err.Error(), "it is "+tc.whose) {
			t.Errorf("Update(%s) = %v; want ErrReservedName naming %q", tc.name, err, tc.whose)
		}
		if _, err := Acquire(t.Context(), fsys, tc.name, Options{}); !errors.Is(err, ErrReservedName) {
			t.Errorf("Acquire(%s) = %v; want ErrReservedName", tc.name, err)
		}
		if _, err := fsys.Stat(tc.name + lockSuffix); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: its lock file was made: %v", tc.name, err)
		}
	}
	if now, _, err := vfs.ReadFile(fsys, "ok.lock", 0); err != nil || string(now) != string(lock) {
		t.Errorf("the lock file of ok is now %q, %v; want it as it was", now, err)
	}
	if _, err := Acquire(t.Context(), fsys, "ok", Options{Policy: policy.SingleFlight}); !errors.Is(err, ErrHeld) {
		t.Errorf("a single_flight acquire of ok = %v; want ErrHeld: its holder keeps it", err)
	}
	for _, name := range []string{"ok.locked", "lock", "tmp", ".tmp-x", "ok.tmp2"} {
		if err := Update(t.Context(), fsys, name, Options{}, func([]byte) ([]byte, error) { return []byte("x"), nil }); err != nil {
			t.Errorf("Update(%s) = %v; want it written", name, err)
		}
	}
}
