package vfs

import (
	"errors"
	"io/fs"
)

// NoHardLinks reports whether err, returned by [FS.Link], means that the file
// system has no hard links. The rule is the spec's ("The steps", Acquire step
// 2): any Link error other than ENOENT (fs.ErrNotExist) or EEXIST
// (fs.ErrExist) means no hard links, whatever the errno (ENOTSUP, EPERM,
// EOPNOTSUPP, EXDEV, ...). A nil error reports false.
//
// Note that errors.ErrUnsupported does not match EPERM, which is what exFAT
// returns, so a check for ErrUnsupported alone would miss that class.
func NoHardLinks(err error) bool {
	if err == nil {
		return false
	}
	return !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrExist)
}
