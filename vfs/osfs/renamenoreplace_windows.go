package osfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// renameNoReplace is MoveFileEx without MOVEFILE_REPLACE_EXISTING, which
// never replaces newname, on the paths of both names under the root's
// directory. Each name's parent must be, by those paths, the directory the
// root reaches by its name (os.SameFile): a parent that leads out of the
// root, through a junction or a symbolic link, is refused as the root
// refuses it. Windows refuses a directory renamed onto one that exists
// with access denied, not ERROR_ALREADY_EXISTS: with newname there, that
// is reported as fs.ErrExist, the errno kept beside it. Built and vetted
// for Windows, not run there.
func (f *FS) renameNoReplace(oldname, newname string) error {
	from, err := f.hostPath(oldname)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	to, err := f.hostPath(newname)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	from16, err := windows.UTF16PtrFromString(from)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	to16, err := windows.UTF16PtrFromString(to)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	err = windows.MoveFileEx(from16, to16, 0)
	if err == nil {
		return nil
	}
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) && !f.absent(newname) {
		err = fmt.Errorf("%w: %w", fs.ErrExist, err)
	}
	return renameError(oldname, newname, err)
}

// hostPath is name's path under the root's directory, once its parent is
// found to be the directory the root reaches by that name. The name is
// split at either separator, as the root splits it: a backslash is a
// separator on Windows, so "j\x" has the parent j, which is checked.
// The check and MoveFileEx are two steps: a junction swapped in between
// them is not refused (the root's own methods are not open to that), and
// a path longer than MAX_PATH is refused by MoveFileEx.
func (f *FS) hostPath(name string) (string, error) {
	local := filepath.FromSlash(name)
	if !filepath.IsLocal(local) {
		return "", fs.ErrInvalid
	}
	dir, base := filepath.Split(local)
	if base == "" || base == "." || base == ".." {
		return "", fs.ErrInvalid
	}
	if dir == "" {
		dir = "."
	}
	inRoot, err := f.root.Stat(dir)
	if err != nil {
		return "", unwrapPath(err)
	}
	parent := filepath.Join(f.root.Name(), dir)
	onHost, err := os.Stat(parent)
	if err != nil {
		return "", unwrapPath(err)
	}
	if !os.SameFile(inRoot, onHost) {
		return "", fmt.Errorf("%s leads out of the root: %w", dir, fs.ErrInvalid)
	}
	return filepath.Join(parent, base), nil
}
