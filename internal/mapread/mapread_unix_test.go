//go:build unix

package mapread_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/pa-toolkit/pa/internal/mapread"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// File maps a file of osfs on Unix: its bytes are the file's, and once
// another process cuts the file short, touching them faults, which
// Guard turns into an error wrapping ErrChanged instead of a crash.
func TestFileMapsAndGuardCatchesTheFault(t *testing.T) {
	o, dir := newOS(t)
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<12) // 64 KiB: many pages
	if err := os.WriteFile(filepath.Join(dir, "f"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, fi, err := mapread.File(o, "f")
	if err != nil || !bytes.Equal(data, want) || fi.Size() != int64(len(want)) {
		t.Fatalf("File = %d bytes, %v; want the file's %d", len(data), err, len(want))
	}
	defer release()
	if err := os.Truncate(filepath.Join(dir, "f"), 0); err != nil {
		t.Fatal(err)
	}
	var sum byte
	err = mapread.Guard("f", data, func() error {
		for _, c := range data[len(data)-4096:] { // a page past the new end
			sum += c
		}
		return nil
	})
	var pe *fs.PathError
	if !errors.Is(err, vfs.ErrChanged) || !errors.As(err, &pe) || pe.Path != "f" || pe.Op != "read" {
		t.Fatalf("touching a mapping cut short: Guard = %v (sum %d); want a read error of f wrapping ErrChanged", err, sum)
	}
}

// Where the handle is no Mapper (a wrapping FS), or the file is empty,
// File reads into a buffer of its own, which a later cut does not touch;
// anything but a regular file is ErrNotRegular, as for ReadFile.
func TestFileReadsWithoutAMapping(t *testing.T) {
	o, dir := newOS(t)
	want := bytes.Repeat([]byte("x"), 1<<14)
	if err := os.WriteFile(filepath.Join(dir, "f"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, _, err := mapread.File(faultfs.New(o), "f")
	if err != nil || !bytes.Equal(data, want) || release == nil {
		t.Fatalf("File through faultfs = %d bytes, %v", len(data), err)
	}
	release()
	if err := os.Truncate(filepath.Join(dir, "f"), 0); err != nil {
		t.Fatal(err)
	}
	if err := mapread.Guard("f", data, func() error { _ = bytes.Count(data, []byte("x")); return nil }); err != nil {
		t.Fatalf("a buffer read by File faulted: %v", err)
	}
	if data, release, _, err := mapread.File(o, "f"); err != nil || len(data) != 0 || release == nil {
		t.Fatalf("File of an empty file = %q, %v", data, err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, release, _, err := mapread.File(o, "d"); !errors.Is(err, vfs.ErrNotRegular) || release == nil {
		t.Fatalf("File of a folder: %v; want ErrNotRegular", err)
	}
	if _, release, _, err := mapread.File(o, "missing"); !errors.Is(err, fs.ErrNotExist) || release == nil {
		t.Fatalf("File of a missing file: %v; want ErrNotExist", err)
	}
}

// Guard lets any other panic go on.
func TestGuardKeepsOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "other" {
			t.Fatalf("recovered %v; want the panic \"other\"", r)
		}
	}()
	_ = mapread.Guard("f", []byte("abc"), func() error { panic("other") })
	t.Fatal("Guard returned after a panic")
}

// newOS is an osfs over a fresh temp dir, and the dir.
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
