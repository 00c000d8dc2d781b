package kernel

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/aferofs"
)

// lockFS is a volume whose kernel locks are broken: every TryLock fails
// with ErrUnsupported (refused), or every one succeeds (no exclusion).
type lockFS struct {
	vfs.FS
	refused bool
}

func (k *lockFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := k.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &lockFile{File: f, refused: k.refused}, nil
}

type lockFile struct {
	vfs.File
	refused bool
}

func (f *lockFile) TryLock() error {
	if f.refused {
		return &fs.PathError{Op: "flock", Path: "x", Err: errors.ErrUnsupported}
	}
	return nil
}

func (f *lockFile) Unlock() error { return nil }

// TestRefusesWithoutKernelLocks: a volume whose TryLock is unsupported
// (here a memory FS whose files are no vfs.Locker, and one that says so)
// is refused with a typed error.
func TestRefusesWithoutKernelLocks(t *testing.T) {
	inner, _ := newFS(t)
	for name, fsys := range map[string]vfs.FS{"mem": aferofs.NewMem(), "refused": &lockFS{FS: inner, refused: true}} {
		_, err := Acquire(t.Context(), fsys, "f", Options{})
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !errors.Is(err, ErrUnsupported) || !errors.Is(err, errors.ErrUnsupported) || ue.NotExclusive || ue.ErrorCode() != policy.CodeUnsupported {
			t.Errorf("%s: err = %v, want a *UnsupportedError", name, err)
		}
	}
}

// TestRefusesWhereTheLockDoesNotExclude: a volume that grants the lock to
// a second handle is refused, and no record is written.
func TestRefusesWhereTheLockDoesNotExclude(t *testing.T) {
	inner, _ := newFS(t)
	fsys := &lockFS{FS: inner}
	for range 2 {
		_, err := Acquire(t.Context(), fsys, "f", Options{})
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !ue.NotExclusive || ue.ErrorCode() != policy.CodeNotExclusive {
			t.Fatalf("err = %v, want a *UnsupportedError (NotExclusive)", err)
		}
	}
	if data, _, _ := vfs.ReadFile(inner, "f.lock", 0); len(data) != 0 {
		t.Errorf("a refused lock wrote %q", data)
	}
}
