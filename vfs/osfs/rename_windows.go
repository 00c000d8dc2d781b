//go:build windows

package osfs

import (
	"errors"
	"io/fs"
	"time"

	"golang.org/x/sys/windows"
)

// rename is os.Root.Rename, tried again for RenameRetryWindow while it
// fails with a sharing error and newname is absent (see renameretry.go).
func (f *FS) rename(oldname, newname string) error {
	return renameRetry{
		rename: f.root.Rename, absent: f.absent, transient: sharingError,
		now: time.Now, sleep: time.Sleep, window: RenameRetryWindow, poll: renameRetryPoll,
	}.do(oldname, newname)
}

// absent reports whether name does not exist in the root.
func (f *FS) absent(name string) bool {
	_, err := f.root.Lstat(name)
	return errors.Is(err, fs.ErrNotExist)
}

func isSharingViolation(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION) ||
		errors.Is(err, windows.ERROR_ACCESS_DENIED)
}
