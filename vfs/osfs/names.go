package osfs

import (
	"io/fs"
	"strings"
)

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
