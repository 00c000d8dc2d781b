//go:build unix

package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// A FIFO where a file is expected is refused at once, never waited on: an
// open for reading of a FIFO with no writer would block forever.
func TestReadFileRefusesFIFOWithoutBlocking(t *testing.T) {
	o, dir := newOS(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "p"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := vfs.ReadFile(o, "p", 0)
		done <- err
	}()
	if err := <-done; !errors.Is(err, vfs.ErrNotRegular) {
		t.Fatalf("ReadFile of a FIFO = %v, want ErrNotRegular", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := vfs.ReadFile(o, "d", 0); !errors.Is(err, vfs.ErrNotRegular) {
		t.Fatalf("ReadFile of a directory = %v, want ErrNotRegular", err)
	}
}

// Lstat reports a symlink as one, through every wrapper.
func TestLstatThroughWrappers(t *testing.T) {
	o, dir := newOS(t)
	if err := os.Symlink("nothing", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]vfs.FS{"osfs": o, "nolinkfs": nolinkfs.New(o, 0), "faultfs": faultfs.New(o)} {
		fi, err := fsys.Lstat("l")
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s: Lstat(l) = %v, %v; want a symlink", name, fi, err)
		}
		if _, err := fsys.Stat("l"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: Stat of a dangling symlink = %v, want fs.ErrNotExist", name, err)
		}
	}
}
