package crashfs

import (
	"io/fs"
	"syscall"
)

// pathErr reports errno err of op on name.
func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// errInvalid is the error of a name that is not a valid io/fs path: it
// matches both fs.ErrInvalid and syscall.EINVAL.
var errInvalid error = invalidName{}

type invalidName struct{}

func (invalidName) Error() string { return "invalid argument" }
func (invalidName) Is(target error) bool {
	return target == fs.ErrInvalid || target == syscall.EINVAL
}
