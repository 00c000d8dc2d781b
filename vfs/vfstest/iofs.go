package vfstest

import (
	"io/fs"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// IOFS returns a read-only io/fs view of fsys (an fs.FS, fs.ReadDirFS and
// fs.StatFS), for testing/fstest.TestFS and for any code that reads an
// io/fs.FS. Names that are not valid io/fs paths fail with fs.ErrInvalid.
func IOFS(fsys vfs.FS) fs.FS { return ioFS{fsys} }

type ioFS struct{ fsys vfs.FS }

func (f ioFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return f.fsys.OpenFile(name, os.O_RDONLY, 0)
}

func (f ioFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return f.fsys.ReadDir(name)
}

func (f ioFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return f.fsys.Stat(name)
}
