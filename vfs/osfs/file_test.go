package osfs_test

import (
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// The wrapper keeps every method of *os.File that callers reach for.
var _ interface {
	vfs.Locker
	io.Seeker
	io.ReaderAt
	io.WriterAt
	io.ReaderFrom
	io.WriterTo
	io.StringWriter
	Name() string
	Fd() uintptr
	Truncate(int64) error
} = (*osfs.File)(nil)

func TestFileForwards(t *testing.T) {
	fsys, _ := newFS(t)
	f, err := fsys.OpenFile("f", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.(*osfs.File); !ok {
		t.Fatalf("OpenFile returned %T, want *osfs.File", f)
	}
	if _, err := f.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() != 5 {
		t.Fatalf("Stat() = %v, %v; want size 5", fi, err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("Stat().Mode() = %v, want -rw-------", fi.Mode())
	}
	if _, err := f.(io.Seeker).Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err != nil || string(data) != "hello" {
		t.Fatalf("read back %q, %v; want %q", data, err, "hello")
	}
}

func TestTryLock(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "lock", "")
	open := func() vfs.File {
		t.Helper()
		f, err := fsys.OpenFile("lock", os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if err := vfs.TryLock(a, "lock"); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			t.Skipf("no advisory locks here: %v", err)
		}
		t.Fatalf("first TryLock: %v", err)
	}
	if err := vfs.TryLock(b, "lock"); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("TryLock of a second handle while the first holds it: %v, want EWOULDBLOCK", err)
	}
	if err := a.(vfs.Locker).Unlock(); err != nil {
		t.Fatalf("Unlock: %v", err)
	}
	if err := vfs.TryLock(b, "lock"); err != nil {
		t.Fatalf("TryLock after the first handle unlocked: %v", err)
	}
}
