package osfs_test

import (
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/pa-toolkit/pa/vfs"
)

// ioFS is a read-only io/fs view of a vfs.FS, for testing/fstest.
type ioFS struct{ vfs.FS }

func (f ioFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return f.OpenFile(name, os.O_RDONLY, 0)
}

func (f ioFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return f.FS.ReadDir(name)
}

func (f ioFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return f.FS.Stat(name)
}

func TestFSTest(t *testing.T) {
	fsys, _ := newFS(t)
	for _, dir := range []string{"agents", "agents/a", "agents/b", "empty"} {
		if err := fsys.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"agents/a/spawn-log.json", "agents/a/spawn-log.json.lock", "agents/b/board.json", "top"}
	for _, name := range files {
		writeFile(t, fsys, name, "contents of "+name)
	}
	if err := fstest.TestFS(ioFS{fsys}, files...); err != nil {
		t.Fatal(err)
	}
}
