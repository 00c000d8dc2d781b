package osfs

import (
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// File is an open file of an [FS]: an *os.File, with every method of it,
// that can also take an advisory kernel lock. On Windows it is also a
// [vfs.FileKeyer] (File.FileKey: the file's key from its handle, which Go's
// stat there does not give); on Unix its stat data carries the key.
type File struct {
	*os.File
}

var _ vfs.Locker = (*File)(nil)

// TryLock takes an exclusive advisory lock on the file without waiting:
// flock(LOCK_EX|LOCK_NB) on Unix; on Windows LockFileEx on one byte far
// past the end of any record (2^62), so that readers can still read it. It returns
// a *fs.PathError (Op "flock") wrapping the errno: one matching
// syscall.EWOULDBLOCK when another handle holds the lock, one matching
// errors.ErrUnsupported when the volume or the system has no such lock.
func (f *File) TryLock() error { return tryLock(f.File) }

// Unlock releases the lock taken by [File.TryLock]. Closing the file
// releases it too. Errors are *fs.PathError (Op "funlock").
func (f *File) Unlock() error { return unlock(f.File) }
