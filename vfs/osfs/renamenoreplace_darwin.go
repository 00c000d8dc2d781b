package osfs

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// renameatNoReplace is renameatx_np(RENAME_EXCL), which APFS and HFS+
// honour. A volume that cannot (some network and FAT volumes) answers
// ENOTSUP or EINVAL: that is errors.ErrUnsupported, the errno
// kept beside it.
func renameatNoReplace(olddirfd int, oldbase string, newdirfd int, newbase string) error {
	err := unix.RenameatxNp(olddirfd, oldbase, newdirfd, newbase, unix.RENAME_EXCL)
	if err == unix.ENOTSUP || err == unix.EINVAL {
		return fmt.Errorf("%w: %w", errors.ErrUnsupported, err)
	}
	return err
}
