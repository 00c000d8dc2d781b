package fusemodel

import (
	"errors"
	"io"
	"io/fs"
	"sync"

	"github.com/pa-toolkit/pa/vfs"
)

// File is a handle opened through an [FS]: the wrapped file, tracked until
// it is closed.
type File struct {
	vfs.File
	fs   *FS
	once sync.Once
}

var (
	_ vfs.Locker    = (*File)(nil)
	_ vfs.FileKeyer = (*File)(nil)
)

// Close closes the wrapped file; when it was the last handle of a hidden
// file, the hidden name is removed.
func (h *File) Close() error {
	err := h.File.Close()
	h.once.Do(func() { h.fs.closed(h) })
	return err
}

// TryLock takes the wrapped file's advisory lock through its [vfs.Locker].
func (h *File) TryLock() error {
	if l, ok := h.File.(vfs.Locker); ok {
		return l.TryLock()
	}
	return &fs.PathError{Op: "flock", Path: "", Err: errors.ErrUnsupported}
}

// Unlock releases the wrapped file's advisory lock through its
// [vfs.Locker].
func (h *File) Unlock() error {
	if l, ok := h.File.(vfs.Locker); ok {
		return l.Unlock()
	}
	return &fs.PathError{Op: "funlock", Path: "", Err: errors.ErrUnsupported}
}

// FileKey returns the wrapped file's key from its handle through its
// [vfs.FileKeyer], or fails with a *fs.PathError (Op "filekey") wrapping
// errors.ErrUnsupported.
func (h *File) FileKey() (vfs.FileKey, error) {
	if k, ok := h.File.(vfs.FileKeyer); ok {
		return k.FileKey()
	}
	return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: "", Err: errors.ErrUnsupported}
}

// WriteAt writes p at off through the wrapped file's io.WriterAt, as a
// FUSE volume's pwrite does; a wrapped file without one fails with a
// *fs.PathError (Op "write") wrapping errors.ErrUnsupported.
func (h *File) WriteAt(p []byte, off int64) (int, error) {
	if at, ok := h.File.(io.WriterAt); ok {
		return at.WriteAt(p, off)
	}
	return 0, &fs.PathError{Op: "write", Path: "", Err: errors.ErrUnsupported}
}
