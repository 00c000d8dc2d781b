//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || windows)

package osfs

import (
	"errors"
	"io/fs"
	"os"
)

func tryLock(f *os.File) error {
	return &fs.PathError{Op: "flock", Path: f.Name(), Err: errors.ErrUnsupported}
}

func unlock(f *os.File) error {
	return &fs.PathError{Op: "funlock", Path: f.Name(), Err: errors.ErrUnsupported}
}
