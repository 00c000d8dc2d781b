package vfs

import (
	"errors"
	"io/fs"
	"time"
)

// ChtimesFS is an [FS] that can set a file's access and modification times.
// Tests use it to skew a lock's file time (spec: The clock; row R08).
type ChtimesFS interface {
	FS
	// Chtimes sets name's access and modification times, following a
	// final symbolic link as os.Chtimes does; errors are *fs.PathError.
	Chtimes(name string, atime, mtime time.Time) error
}

// Chtimes sets the access and modification times of name through fsys's
// [ChtimesFS], or returns a *fs.PathError wrapping errors.ErrUnsupported.
func Chtimes(fsys FS, name string, atime, mtime time.Time) error {
	if c, ok := fsys.(ChtimesFS); ok {
		return c.Chtimes(name, atime, mtime)
	}
	return &fs.PathError{Op: "chtimes", Path: name, Err: errors.ErrUnsupported}
}
