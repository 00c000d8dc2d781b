package nolinkfs

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// ErrUnknownErrno is wrapped by [ParseErrno] for a name it does not accept.
var ErrUnknownErrno = errors.New("unknown errno for a refused link")

// ParseErrno returns the errno named by name: "ENOTSUP", "EPERM" or
// "EOPNOTSUPP", in any case. The values are the running system's (on Linux
// ENOTSUP and EOPNOTSUPP are one errno; on Darwin they differ; Windows has
// Go's invented values). Any other name fails with an error wrapping
// [ErrUnknownErrno].
func ParseErrno(name string) (syscall.Errno, error) {
	switch strings.ToUpper(name) {
	case "ENOTSUP":
		return syscall.ENOTSUP, nil
	case "EPERM":
		return syscall.EPERM, nil
	case "EOPNOTSUPP":
		return syscall.EOPNOTSUPP, nil
	}
	return 0, fmt.Errorf("%w %q: want ENOTSUP, EPERM or EOPNOTSUPP", ErrUnknownErrno, name)
}
