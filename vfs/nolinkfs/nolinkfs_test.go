package nolinkfs_test

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

func newOS(t *testing.T) *osfs.FS {
	t.Helper()
	fsys, err := osfs.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	if err := vfs.WriteFileExclusive(fsys, "a", []byte("a"), 0o644, false); err != nil {
		t.Fatal(err)
	}
	return fsys
}

func TestLinkRefused(t *testing.T) {
	tests := []struct {
		errno, want syscall.Errno
	}{
		{0, syscall.ENOTSUP},
		{syscall.ENOTSUP, syscall.ENOTSUP},
		{syscall.EPERM, syscall.EPERM},
		{syscall.EOPNOTSUPP, syscall.EOPNOTSUPP},
	}
	for _, tt := range tests {
		inner := newOS(t)
		fsys := nolinkfs.New(inner, tt.errno)
		err := fsys.Link("a", "b")
		le, ok := err.(*os.LinkError)
		if !ok || le.Op != "link" || le.Old != "a" || le.New != "b" || le.Err != tt.want {
			t.Errorf("New(_, %d).Link(a, b) = %#v, want &os.LinkError{Op: link, Old: a, New: b, Err: %v}", tt.errno, err, tt.want)
		}
		if !vfs.NoHardLinks(err) {
			t.Errorf("NoHardLinks(%v) = false, want true", err)
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("errors.Is(%v, %v) = false", err, tt.want)
		}
		if got := fsys.Errno(); got != tt.want {
			t.Errorf("Errno() = %v, want %v", got, tt.want)
		}
		if _, err := inner.Stat("b"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the refused link made b: Stat(b) = %v, want fs.ErrNotExist", err)
		}
	}
}

func TestLinkRefusedEvenOntoExisting(t *testing.T) {
	fsys := nolinkfs.New(newOS(t), syscall.EPERM)
	if err := fsys.Link("a", "a"); errors.Is(err, fs.ErrExist) || !errors.Is(err, syscall.EPERM) {
		t.Errorf("Link onto an existing name = %v, want EPERM, never EEXIST", err)
	}
}

func TestPassThrough(t *testing.T) {
	inner := newOS(t)
	fsys := nolinkfs.New(inner, 0)
	if fsys.Unwrap() != vfs.FS(inner) {
		t.Fatalf("Unwrap() = %v, want the wrapped FS", fsys.Unwrap())
	}
	if err := fsys.Mkdir("d", 0o755); err != nil {
		t.Fatalf("Mkdir: %v", err)
	}
	if err := vfs.WriteFileExclusive(fsys, "d/f", []byte("hello"), 0o644, true); err != nil {
		t.Fatalf("WriteFileExclusive: %v", err)
	}
	if err := vfs.WriteFileExclusive(fsys, "d/f", nil, 0o644, false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second exclusive create: %v, want fs.ErrExist", err)
	}
	if err := fsys.Rename("d/f", "g"); err != nil {
		t.Fatalf("Rename: %v", err)
	}
	data, fi, err := vfs.ReadFile(inner, "g", 0)
	if err != nil || string(data) != "hello" {
		t.Fatalf("the wrapped FS reads g as %q, %v; want %q", data, err, "hello")
	}
	if got, err := fsys.Stat("g"); err != nil || got.Size() != fi.Size() {
		t.Errorf("Stat(g) = %v, %v; want size %d", got, err, fi.Size())
	}
	entries, err := fsys.ReadDir(".")
	if err != nil || len(entries) != 3 || entries[0].Name() != "a" || entries[1].Name() != "d" || entries[2].Name() != "g" {
		t.Errorf("ReadDir(.) = %v, %v; want a, d, g", entries, err)
	}
	if err := fsys.Remove("g"); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if _, err := inner.Stat("g"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after Remove, the wrapped FS has g: %v", err)
	}
	// Files come from the wrapped FS unchanged, with their optional
	// interfaces.
	f, err := fsys.OpenFile("a", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.(vfs.Locker); !ok {
		t.Errorf("a file of nolinkfs over osfs is %T, want a vfs.Locker", f)
	}
}

func TestForwardsOptional(t *testing.T) {
	inner := newOS(t)
	fsys := nolinkfs.New(inner, 0)

	mtime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := vfs.Chtimes(fsys, "a", mtime, mtime); err != nil {
		t.Fatalf("Chtimes through nolinkfs: %v", err)
	}
	if fi, err := inner.Stat("a"); err != nil || !fi.ModTime().Equal(mtime) {
		t.Errorf("after Chtimes, the wrapped FS has %v, %v; want mtime %v", fi.ModTime(), err, mtime)
	}

	if err := vfs.WriteFileExclusive(fsys, "b", nil, 0o644, false); err != nil {
		t.Fatal(err)
	}
	err := vfs.RenameNoReplace(fsys, "a", "b")
	if runtime.GOOS == "linux" && !errors.Is(err, errors.ErrUnsupported) {
		if !errors.Is(err, fs.ErrExist) {
			t.Errorf("RenameNoReplace onto b through nolinkfs: %v, want fs.ErrExist", err)
		}
	} else if !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("RenameNoReplace through nolinkfs: %v, want errors.ErrUnsupported", err)
	}
}

// bare hides every optional interface of the FS it holds.
type bare struct{ vfs.FS }

func TestOptionalMissing(t *testing.T) {
	fsys := nolinkfs.New(bare{newOS(t)}, 0)
	if err := fsys.Chtimes("a", time.Now(), time.Now()); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Chtimes over an FS without it: %v, want errors.ErrUnsupported", err)
	}
	if err := fsys.RenameNoReplace("a", "b"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("RenameNoReplace over an FS without it: %v, want errors.ErrUnsupported", err)
	}
	if _, err := fsys.Stat("a"); err != nil {
		t.Errorf("Stat(a): %v", err)
	}
}
