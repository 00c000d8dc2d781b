package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func newOS(t *testing.T) (*osfs.FS, string) {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o, dir
}

// The spec's rule: any link() error but ENOENT and EEXIST is "no hard
// links", EPERM included (which errors.ErrUnsupported does not match).
func TestNoHardLinks(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&os.LinkError{Op: "link", Err: syscall.EEXIST}, false},
		{&os.LinkError{Op: "link", Err: syscall.ENOENT}, false},
		{&os.LinkError{Op: "link", Err: syscall.EPERM}, true},
		{&os.LinkError{Op: "link", Err: syscall.ENOTSUP}, true},
		{&os.LinkError{Op: "link", Err: syscall.EOPNOTSUPP}, true},
		{&os.LinkError{Op: "link", Err: syscall.EXDEV}, true},
		{errors.ErrUnsupported, true},
	} {
		if got := vfs.NoHardLinks(c.err); got != c.want {
			t.Errorf("NoHardLinks(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestMkdirAll(t *testing.T) {
	o, dir := newOS(t)
	if err := vfs.MkdirAll(o, "a/b/c", 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "a/b/c")); err != nil || !fi.IsDir() {
		t.Fatalf("a/b/c not made: %v", err)
	}
	if err := vfs.MkdirAll(o, "a/b/c", 0o755); err != nil {
		t.Fatalf("existing directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a/f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := vfs.MkdirAll(o, "a/f/g", 0o755)
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		t.Fatalf("MkdirAll through a file: %v, want a *fs.PathError", err)
	}
}

func TestSyncDirToleratesRefusal(t *testing.T) {
	o, _ := newOS(t)
	if err := vfs.SyncDir(o, "."); err != nil {
		t.Fatal(err)
	}
	f := faultfs.New(o)
	f.Fail(faultfs.Rule{Op: faultfs.OpSync, Err: syscall.EINVAL})
	if err := vfs.SyncDir(f, "."); err != nil {
		t.Fatalf("EINVAL from a directory fsync is the volume refusing it: %v", err)
	}
	f.Clear()
	f.Fail(faultfs.Rule{Op: faultfs.OpSync, Err: syscall.EIO})
	if err := vfs.SyncDir(f, "."); !errors.Is(err, syscall.EIO) {
		t.Fatalf("EIO from a directory fsync: %v, want it returned", err)
	}
}

func TestReadFileLimit(t *testing.T) {
	o, dir := newOS(t)
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, fi, err := vfs.ReadFile(o, "f", 10); err != nil || string(b) != "0123456789" || fi.Size() != 10 {
		t.Fatalf("ReadFile at the limit = %q, %v", b, err)
	}
	if _, _, err := vfs.ReadFile(o, "f", 9); !errors.Is(err, vfs.ErrTooLarge) {
		t.Fatalf("ReadFile over the limit: %v, want ErrTooLarge", err)
	}
	if _, _, err := vfs.ReadFile(o, "missing", 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

func TestWriteFileExclusive(t *testing.T) {
	o, dir := newOS(t)
	if err := vfs.WriteFileExclusive(o, "f", []byte("x"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	if err := vfs.WriteFileExclusive(o, "f", []byte("y"), 0o644, false); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "x" {
		t.Fatalf("content %q", b)
	}
}

func TestOptionalCapabilitiesReportUnsupported(t *testing.T) {
	var bare vfs.FS = bareFS{}
	if err := vfs.RenameNoReplace(bare, "a", "b"); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("RenameNoReplace on a bare FS: %v", err)
	}
	if err := vfs.Chtimes(bare, "a", zeroTime, zeroTime); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("Chtimes on a bare FS: %v", err)
	}
}
