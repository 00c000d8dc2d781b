package vfstest

import (
	"fmt"
	"io/fs"
	"testing/fstest"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// chtimes: Chtimes sets a file's modification time, and fails with ENOENT
// on a missing name (skipped when the FS is not a vfs.ChtimesFS).
func chtimes(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if _, ok := fsys.(vfs.ChtimesFS); !ok {
		return skipError{"the FS is not a vfs.ChtimesFS"}
	}
	if err := put(fsys, "f", "x"); err != nil {
		return err
	}
	at := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := vfs.Chtimes(fsys, "f", at, at); err != nil {
		return fmt.Errorf("Chtimes(f): %v", err)
	}
	fi, err := fsys.Stat("f")
	if err != nil {
		return err
	}
	if !fi.ModTime().Equal(at) {
		return fmt.Errorf("ModTime of f after Chtimes = %v; want %v", fi.ModTime(), at)
	}
	return pathErr("Chtimes(missing)", vfs.Chtimes(fsys, "missing", at, at), "missing", fs.ErrNotExist)
}

// ioFSTest: testing/fstest.TestFS on a small tree, read through IOFS.
func ioFSTest(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	files := []string{"top", "a/one", "a/b/two"}
	if err := first(fsys.Mkdir("a", 0o755), fsys.Mkdir("a/b", 0o755), fsys.Mkdir("empty", 0o755)); err != nil {
		return err
	}
	for _, name := range files {
		if err := put(fsys, name, "contents of "+name); err != nil {
			return err
		}
	}
	return fstest.TestFS(IOFS(fsys), files...)
}
