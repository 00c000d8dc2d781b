//go:build windows

package osfs

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// allBytes locks the whole file, however long it grows.
const allBytes = ^uint32(0)

func tryLock(f *os.File) error {
	ol := new(windows.Overlapped)
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, allBytes, allBytes, ol)
	if err == windows.ERROR_LOCK_VIOLATION {
		err = heldError{windows.ERROR_LOCK_VIOLATION}
	}
	if err != nil {
		return &fs.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
	return nil
}

func unlock(f *os.File) error {
	ol := new(windows.Overlapped)
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, allBytes, allBytes, ol); err != nil {
		return &fs.PathError{Op: "funlock", Path: f.Name(), Err: err}
	}
	return nil
}

// heldError is Windows' "another handle holds the lock". It unwraps to the
// Windows errno and also matches syscall.EWOULDBLOCK, as [vfs.Locker]
// promises on every system.
type heldError struct{ errno syscall.Errno }

func (e heldError) Error() string        { return e.errno.Error() }
func (e heldError) Unwrap() error        { return e.errno }
func (e heldError) Is(target error) bool { return target == syscall.EWOULDBLOCK }
