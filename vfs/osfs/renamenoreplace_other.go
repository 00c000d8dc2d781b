//go:build !linux && !darwin && !windows

package osfs

import "errors"

func (f *FS) renameNoReplace(oldname, newname string) error {
	return renameError(oldname, newname, errors.ErrUnsupported)
}
