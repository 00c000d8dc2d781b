package vfs

import (
	"errors"
	"io/fs"
	"path"
)

// MkdirAll creates the directory name and every missing parent with
// permission bits perm, through [FS.Mkdir]. A name that exists and is a
// directory is not an error; one that exists and is not a directory fails
// with a *fs.PathError wrapping syscall.ENOTDIR semantics (it matches
// neither fs.ErrExist nor fs.ErrNotExist). A name that exists but cannot be
// looked at (a symbolic link the FS refuses to follow out of its root)
// fails with the error of that look (Stat), not with fs.ErrExist.
//
// Each folder it creates is made durable before a folder under it is made
// or it returns: its parent is synced ([SyncDir]) after the mkdir, also
// when another process created it meanwhile (that process may not live to
// sync it). Without that, a power cut after files under it were written
// and synced may lose the folder, and everything under it, from its
// parent's entries. A sync that fails is returned.
func MkdirAll(fsys FS, name string, perm fs.FileMode) error {
	if name == "." || name == "" {
		return nil
	}
	if fi, err := fsys.Stat(name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: errNotDir}
	}
	if err := MkdirAll(fsys, path.Dir(name), perm); err != nil {
		return err
	}
	err := fsys.Mkdir(name, perm)
	if err != nil && errors.Is(err, fs.ErrExist) {
		fi, serr := fsys.Stat(name)
		switch {
		case serr == nil && fi.IsDir():
			err = nil // created meanwhile by another process
		case serr != nil && !errors.Is(serr, fs.ErrNotExist):
			return serr // it is there but cannot be looked at (a link that leads out of the root): say why
		}
	}
	if err != nil {
		return err
	}
	return SyncDir(fsys, path.Dir(name))
}
