package faultfs_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func TestWriteFault(t *testing.T) {
	fsys, inner := newFS(t)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpWrite, Match: "*.tmp", Err: syscall.ENOSPC, Times: 1})
	f, err := fsys.OpenFile("dir.tmp", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	n, err := f.Write([]byte("hello"))
	var pe *fs.PathError
	if n != 0 || !errors.As(err, &pe) || pe.Op != "write" || pe.Path != "dir.tmp" || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write = %d, %#v; want 0, &fs.PathError{Op: write, Path: dir.tmp, Err: ENOSPC}", n, err)
	}
	if n, err := f.Write([]byte("again")); n != 5 || err != nil {
		t.Errorf("second Write = %d, %v; want 5, nil once the rule is used up", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, inner, "dir.tmp"); got != "again" {
		t.Errorf("the file holds %q, want only the second write, %q", got, "again")
	}
}

func TestCloseFaultStillCloses(t *testing.T) {
	fsys, _ := newFS(t)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpClose, Match: "f", Err: syscall.EIO})
	f, err := fsys.OpenFile("f", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); !errors.Is(err, syscall.EIO) {
		t.Errorf("Close = %v, want EIO", err)
	}
	if err := f.(*faultfs.File).Unwrap().Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("closing the wrapped file again: %v, want os.ErrClosed: a failed Close must still close it", err)
	}
}

func TestReadSyncFaults(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "g", "contents")
	fsys.Fail(faultfs.Rule{Op: faultfs.OpRead, Match: "g", Err: syscall.EIO, Times: 1})
	fsys.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: "g", Err: syscall.EIO, Times: 1})
	f, err := fsys.OpenFile("g", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 3)
	if n, err := f.Read(buf); n != 0 || !errors.Is(err, syscall.EIO) {
		t.Errorf("Read = %d, %v; want 0, EIO", n, err)
	}
	if data, err := io.ReadAll(f); err != nil || string(data) != "contents" {
		t.Errorf("reading on = %q, %v; want %q, nothing consumed by the failed read", data, err, "contents")
	}
	if err := f.Sync(); !errors.Is(err, syscall.EIO) {
		t.Errorf("Sync = %v, want EIO", err)
	}
	if err := f.Sync(); err != nil {
		t.Errorf("second Sync = %v, want nil", err)
	}
	if fi, err := f.Stat(); err != nil || fi.Size() != 8 {
		t.Errorf("Stat of the file = %v, %v; want size 8", fi, err)
	}
}

func TestFileHooks(t *testing.T) {
	fsys, _ := newFS(t)
	var ops []faultfs.Op
	fsys.After(func(ev faultfs.Event) error {
		if ev.Name == "f" {
			ops = append(ops, ev.Op)
		}
		return nil
	})
	if err := vfs.WriteFileExclusive(fsys, "f", []byte("x"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	want := []faultfs.Op{faultfs.OpOpenFile, faultfs.OpWrite, faultfs.OpSync, faultfs.OpClose}
	if len(ops) != len(want) {
		t.Fatalf("After saw %v, want %v", ops, want)
	}
	for i := range want {
		if ops[i] != want[i] {
			t.Errorf("After saw %v, want %v", ops, want)
			break
		}
	}
}

func TestOpenFileAfterFailureCloses(t *testing.T) {
	fsys, inner := newFS(t)
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpOpenFile {
			return syscall.EIO
		}
		return nil
	})
	f, err := fsys.OpenFile("f", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if f != nil || !errors.Is(err, syscall.EIO) {
		t.Errorf("OpenFile failed by an After hook = %v, %v; want nil, EIO", f, err)
	}
	if !exists(t, inner, "f") {
		t.Errorf("the create ran before the After hook, so f must exist")
	}
}
