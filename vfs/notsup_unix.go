//go:build unix

package vfs

import (
	"errors"

	"golang.org/x/sys/unix"
)

func isNotSupported(err error) bool {
	return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}
