package osfs

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// renameatNoReplace is renameat2(RENAME_NOREPLACE). A kernel or file system
// that refuses the flag answers EINVAL or ENOSYS (a FUSE server without
// rename2 answers EINVAL): that is errors.ErrUnsupported, the errno
// kept beside it.
func renameatNoReplace(olddirfd int, oldbase string, newdirfd int, newbase string) error {
	err := unix.Renameat2(olddirfd, oldbase, newdirfd, newbase, unix.RENAME_NOREPLACE)
	if err == unix.EINVAL || err == unix.ENOSYS {
		return fmt.Errorf("%w: %w", errors.ErrUnsupported, err)
	}
	return err
}
