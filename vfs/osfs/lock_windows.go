//go:build windows

package osfs

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// The lock is one byte at offset 2^62, far past any record's end, as
// SQLite's lock bytes are: LockFileEx's locks are mandatory for reads and
// writes of the bytes they cover, so a lock over the record would keep
// every judge from reading the record it locks.
const (
	lockOffsetHigh = 1 << 30 // 2^62 as the high 32 bits of the offset
	lockLength     = 1
)

func tryLock(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, lockLength, 0, ol)
	if err == windows.ERROR_LOCK_VIOLATION {
		err = heldError{windows.ERROR_LOCK_VIOLATION}
	}
	if err != nil {
		return &fs.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
	return nil
}

func unlock(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, lockLength, 0, ol); err != nil {
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
