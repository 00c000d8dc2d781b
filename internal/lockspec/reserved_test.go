package lockspec_test

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// A file named as one the lock writes for another file is never guarded:
// Acquire and Update refuse it with a *fs.PathError that wraps
// ErrReservedName and says whose name it is, before any file is touched.
// Update("d/ok.lock") would otherwise replace the live lock of d/ok.
func TestReservedNamesAreNotGuarded(t *testing.T) {
	for _, tc := range []struct{ name, whose string }{
		{"d/ok.lock", "the lock of ok"},
		{"d/ok.lock.incidents.jsonl", "a name beside the lock of ok"},
		{"d/ok.lock.pending-5bce98f7-42-0123456789abcdef01234567", "a name beside the lock of ok"},
		{"d/ok.lock.claim-x", "a name beside the lock of ok"},
		{"d/ok.tmp-5bce98f7-42-0123456789abcdef01234567", "a tmp file of ok"},
		{"d/ok.keep-5bce98f7-42-0123456789abcdef01234567", "a keep file of ok"},
	} {
		e := newEstate(t, classes[0])
		m := locktest.NewMachine("host-a")
		holder, err := lockspec.Acquire(context.Background(), e.fsys, "d/ok", fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		before, lock := e.ls(t), string(e.readRaw(t, "d/ok.lock"))
		err = lockspec.Update(context.Background(), e.fsys, tc.name, func([]byte, bool) ([]byte, error) { return []byte("x"), nil }, fast(m.Spawn()))
		var pe *fs.PathError
		if !errors.Is(err, lockspec.ErrReservedName) || !errors.As(err, &pe) || pe.Path != tc.name || !strings.Contains(err.Error(), "it is "+tc.whose) {
			t.Errorf("Update(%s) = %v; want ErrReservedName naming %q", tc.name, err, tc.whose)
		}
		if after := e.ls(t); !slices.Equal(before, after) || string(e.readRaw(t, "d/ok.lock")) != lock {
			t.Errorf("Update(%s) changed the folder: %v -> %v, or the lock of d/ok", tc.name, before, after)
		}
		if err := holder.Release(); err != nil {
			t.Errorf("the holder of d/ok: Release = %v; want its lock intact", err)
		}
	}
}

// Names that only look alike are guarded as any other.
func TestNamesLikeReservedOnesAreGuarded(t *testing.T) {
	for _, name := range []string{"d/ok.locked", "d/lock", "d/ok.tmp", "d/ok.tmp-1", "d/.lock-file", "d/ok.keep-notes"} {
		e := newEstate(t, classes[0])
		m := locktest.NewMachine("host-a")
		if err := lockspec.Update(context.Background(), e.fsys, name, func([]byte, bool) ([]byte, error) { return []byte("x"), nil }, fast(m.Spawn())); err != nil {
			t.Errorf("Update(%s) = %v; want it written", name, err)
		}
	}
}
