package faultfs_test

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func TestUnwrap(t *testing.T) {
	fsys, inner := newFS(t)
	if fsys.Unwrap() != vfs.FS(inner) {
		t.Errorf("Unwrap() = %v, want the wrapped FS", fsys.Unwrap())
	}
}

func TestForwardsChtimes(t *testing.T) {
	fsys, inner := newFS(t)
	writeFile(t, fsys, "f", "x")
	mtime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := vfs.Chtimes(fsys, "f", mtime, mtime); err != nil {
		t.Fatalf("Chtimes: %v", err)
	}
	if fi, err := inner.Stat("f"); err != nil || !fi.ModTime().Equal(mtime) {
		t.Errorf("after Chtimes the file has %v, %v; want %v", fi.ModTime(), err, mtime)
	}
	fsys.Fail(faultfs.Rule{Op: faultfs.OpChtimes, Err: syscall.EPERM})
	var pe *fs.PathError
	if err := fsys.Chtimes("f", mtime, mtime); !errors.As(err, &pe) || pe.Op != "chtimes" || !errors.Is(err, syscall.EPERM) {
		t.Errorf("Chtimes under a rule = %#v, want &fs.PathError{Op: chtimes, Err: EPERM}", err)
	}
}

func TestForwardsRenameNoReplace(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "a", "a")
	writeFile(t, fsys, "b", "b")
	err := vfs.RenameNoReplace(fsys, "a", "b")
	switch {
	case runtime.GOOS != "linux" || errors.Is(err, errors.ErrUnsupported):
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("RenameNoReplace = %v, want errors.ErrUnsupported here", err)
		}
	case !errors.Is(err, fs.ErrExist):
		t.Errorf("RenameNoReplace onto an existing name = %v, want fs.ErrExist", err)
	}

	fsys.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "c", Err: syscall.EXDEV, Times: 1})
	err = fsys.RenameNoReplace("a", "c")
	var le *os.LinkError
	if !errors.As(err, &le) || le.Op != "renamenoreplace" || le.Old != "a" || le.New != "c" || !errors.Is(err, syscall.EXDEV) {
		t.Errorf("RenameNoReplace under an OpRename rule = %#v, want &os.LinkError{Op: renamenoreplace, Old: a, New: c, Err: EXDEV}", err)
	}
	if got := fsys.Calls(faultfs.OpRename, ""); got != 2 {
		t.Errorf("Calls(OpRename) = %d, want 2 RenameNoReplace calls", got)
	}
}

// bare hides every optional interface of the FS it holds, and of its files.
type bare struct{ vfs.FS }

type bareFile struct{ vfs.File }

func (b bare) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := b.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return bareFile{f}, nil
}

func TestOptionalMissing(t *testing.T) {
	inner, _ := newFS(t)
	fsys := faultfs.New(bare{inner})
	writeFile(t, fsys, "a", "a")
	if err := fsys.Chtimes("a", time.Now(), time.Now()); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Chtimes over an FS without it: %v, want errors.ErrUnsupported", err)
	}
	if err := fsys.RenameNoReplace("a", "b"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("RenameNoReplace over an FS without it: %v, want errors.ErrUnsupported", err)
	}
	f, err := fsys.OpenFile("a", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := vfs.TryLock(f, "a"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("TryLock of a file without it: %v, want errors.ErrUnsupported", err)
	}
	if err := f.(vfs.Locker).Unlock(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Unlock of a file without it: %v, want errors.ErrUnsupported", err)
	}
	if _, err := f.(vfs.FileKeyer).FileKey(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("FileKey of a file without it: %v, want errors.ErrUnsupported", err)
	}
}

func TestForwardsLocker(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "lock", "")
	a, err := fsys.OpenFile("lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := fsys.OpenFile("lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := vfs.TryLock(a, "lock"); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			t.Skipf("no advisory locks here: %v", err)
		}
		t.Fatalf("TryLock through faultfs: %v", err)
	}
	if err := vfs.TryLock(b, "lock"); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Errorf("TryLock of a second handle: %v, want EWOULDBLOCK", err)
	}
	if err := a.(vfs.Locker).Unlock(); err != nil {
		t.Errorf("Unlock through faultfs: %v", err)
	}
}
