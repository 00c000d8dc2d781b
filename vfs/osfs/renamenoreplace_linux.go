//go:build linux

package osfs

import (
	"errors"
	"io/fs"
	"strings"

	"golang.org/x/sys/unix"
)

// renameNoReplace opens both parents through the root, so that they are
// inside it, and renames between them with renameat2(RENAME_NOREPLACE).
func (f *FS) renameNoReplace(oldname, newname string) error {
	oldDir, oldBase, err := splitName(oldname)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	newDir, newBase, err := splitName(newname)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	od, err := f.root.Open(oldDir)
	if err != nil {
		return renameError(oldname, newname, unwrapPath(err))
	}
	defer od.Close()
	nd, err := f.root.Open(newDir)
	if err != nil {
		return renameError(oldname, newname, unwrapPath(err))
	}
	defer nd.Close()
	// Both files stay open (and so their descriptors valid) until the
	// deferred Close calls, after the system call.
	err = unix.Renameat2(int(od.Fd()), oldBase, int(nd.Fd()), newBase, unix.RENAME_NOREPLACE)
	if err == unix.EINVAL || err == unix.ENOSYS {
		err = errors.ErrUnsupported
	}
	if err != nil {
		return renameError(oldname, newname, err)
	}
	return nil
}

// unwrapPath returns the errno inside a *fs.PathError from opening a parent,
// so that the *os.LinkError names both names, not the parent's.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// splitName splits name into the directory to open through the root and a
// base name with no slash, which a *at system call resolves in that
// directory and so cannot leave it.
func splitName(name string) (dir, base string, err error) {
	dir, base = ".", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		dir, base = name[:i], name[i+1:]
		if dir == "" {
			dir = "/" // absolute: let the root refuse it
		}
	}
	if base == "" || base == "." || base == ".." {
		return "", "", fs.ErrInvalid
	}
	return dir, base, nil
}
