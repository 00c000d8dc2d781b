package osfs

import (
	"errors"
	"io/fs"
	"syscall"
	"time"
)

// On Windows a rename fails, for a moment, while another process has the
// file open without sharing its deletion: an antivirus or an indexer
// scanning a file just written, a backup, an editor (a waiter of the lock
// reading it opens it through os.Root, which shares deletion). The lock
// renames its lock to a new, unique name at every release and break, so
// such a failure there would fail a release for nothing. Rename on Windows
// therefore tries again, for up to RenameRetryWindow, while the error is a
// sharing error and the new name is absent; then it returns the first error.
// A new name that exists is never retried for: its error may be permanent
// (a directory, a read-only file).
const (
	// RenameRetryWindow is how long a rename on Windows keeps trying.
	RenameRetryWindow = 2 * time.Second
	// renameRetryPoll is the wait between two tries.
	renameRetryPoll = 10 * time.Millisecond
)

// renameRetry is the retry of a rename, with its system calls and its
// clock as seams (the tests run it on every system).
type renameRetry struct {
	rename func(oldname, newname string) error
	// absent reports whether name does not exist.
	absent func(name string) bool
	// transient reports whether a rename error is a sharing error that
	// another process's handle causes for a moment.
	transient func(err error) bool
	now       func() time.Time
	sleep     func(time.Duration)
	window    time.Duration
	poll      time.Duration
}

// do renames oldname to newname, trying again while the error is transient
// and newname is absent, until the window from the first try is over; it
// then returns the first error.
func (r renameRetry) do(oldname, newname string) error {
	first := r.rename(oldname, newname)
	if first == nil || !r.transient(first) || !r.absent(newname) {
		return first
	}
	deadline := r.now().Add(r.window)
	for r.now().Before(deadline) {
		r.sleep(r.poll)
		err := r.rename(oldname, newname)
		if err == nil {
			return nil
		}
		if !r.transient(err) || !r.absent(newname) {
			return err
		}
	}
	return first
}

// sharingError reports whether err is a sharing error of a rename:
// EACCES, EPERM or EBUSY, or on Windows ERROR_ACCESS_DENIED,
// ERROR_SHARING_VIOLATION or ERROR_LOCK_VIOLATION.
func sharingError(err error) bool {
	return errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) ||
		errors.Is(err, syscall.EBUSY) || errors.Is(err, fs.ErrPermission) || isSharingViolation(err)
}
