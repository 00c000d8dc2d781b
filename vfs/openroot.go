package vfs

import (
	"errors"
	"io"
	"io/fs"
)

// OpenRootFS is an [FS] that can open one of its directories as an FS of its
// own, held open until it is closed: a name in it is then resolved from
// that directory, never walked from the root again (os.Root opens every
// folder on the way, for every call). The lock opens its folder so, once
// per hold ([PinDir]).
type OpenRootFS interface {
	FS
	// OpenRoot opens the directory dir (a valid path, not ".") as a
	// [RootFS] whose names are relative to dir and cannot leave it. It
	// stays on the directory it opened, even if that is renamed. Errors
	// are *fs.PathError.
	OpenRoot(dir string) (RootFS, error)
}

// RootFS is an FS opened on a directory by [OpenRootFS.OpenRoot]. Close
// releases the directory; files opened through it stay open.
type RootFS interface {
	FS
	io.Closer
}

// OpenRoot opens dir as an FS of its own through fsys's [OpenRootFS], or
// returns a *fs.PathError (Op "openroot") wrapping errors.ErrUnsupported.
func OpenRoot(fsys FS, dir string) (RootFS, error) {
	if o, ok := fsys.(OpenRootFS); ok {
		return o.OpenRoot(dir)
	}
	return nil, &fs.PathError{Op: "openroot", Path: dir, Err: errors.ErrUnsupported}
}
