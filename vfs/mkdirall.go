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
// neither fs.ErrExist nor fs.ErrNotExist).
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
		if fi, serr := fsys.Stat(name); serr == nil && fi.IsDir() {
			return nil // created meanwhile by another process
		}
	}
	return err
}
