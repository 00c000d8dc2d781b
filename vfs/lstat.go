package vfs

import (
	"errors"
	"io/fs"
)

// LstatFS is an [FS] that can stat a name without following a symbolic
// link at its end. The lock uses it to judge a lock name that is a symlink,
// a FIFO or a directory without opening it.
type LstatFS interface {
	FS
	// Lstat returns name's file information without following a final
	// symbolic link, as os.Lstat does; errors are *fs.PathError.
	Lstat(name string) (fs.FileInfo, error)
}

// Lstat returns the file information of name without following a final
// symbolic link, through fsys's [LstatFS], or a *fs.PathError wrapping
// errors.ErrUnsupported.
func Lstat(fsys FS, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(LstatFS); ok {
		return l.Lstat(name)
	}
	return nil, &fs.PathError{Op: "lstat", Path: name, Err: errors.ErrUnsupported}
}
