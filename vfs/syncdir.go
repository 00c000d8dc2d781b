package vfs

import (
	"errors"
	"runtime"
	"syscall"
)

// SyncDir commits the entries of directory dir (a rename or a create in it)
// to stable storage where the file system allows: it opens dir read-only and
// calls Sync. Volumes and systems that refuse a directory fsync (EINVAL,
// ENOTSUP, EOPNOTSUPP, EBADF, and every error on Windows, where a directory
// cannot be synced) are not an error: SyncDir returns nil there. Other errors
// are returned as *fs.PathError.
func SyncDir(fsys FS, dir string) error {
	f, err := fsys.OpenFile(dir, ReadFlags, 0) // non-blocking: a FIFO at the name never stalls the sync
	if err != nil {
		if runtime.GOOS == "windows" {
			return nil
		}
		return err
	}
	serr := f.Sync()
	cerr := f.Close()
	if serr != nil && !dirSyncRefused(serr) {
		return serr
	}
	if cerr != nil && !dirSyncRefused(cerr) {
		return cerr
	}
	return nil
}

func dirSyncRefused(err error) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) ||
		errors.Is(err, syscall.EBADF) || isNotSupported(err)
}
