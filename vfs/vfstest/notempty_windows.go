//go:build windows

package vfstest

import (
	"errors"
	"syscall"
)

// errDirNotEmpty is Windows' ERROR_DIR_NOT_EMPTY.
const errDirNotEmpty = syscall.Errno(145)

func isWindowsNotEmpty(err error) bool { return errors.Is(err, errDirNotEmpty) }
