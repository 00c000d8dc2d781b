package faultfs

import (
	"errors"
	"io"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
)

// File is a file opened through an [FS]. Read, Write (and WriteAt), Sync
// and Close are the operations [OpRead], [OpWrite], [OpSync] and [OpClose]
// on the name given to OpenFile; Stat, ReadDir, TryLock, Unlock and FileKey
// go straight to the wrapped file.
type File struct {
	fs    *FS
	name  string
	inner vfs.File
}

var (
	_ vfs.Locker    = (*File)(nil)
	_ vfs.FileKeyer = (*File)(nil)
)

// Name returns the name the file was opened by.
func (f *File) Name() string { return f.name }

// Unwrap returns the wrapped file.
func (f *File) Unwrap() vfs.File { return f.inner }

// Read reads from the wrapped file (operation [OpRead]). An injected error
// reads nothing.
func (f *File) Read(p []byte) (n int, err error) {
	err = f.fs.do(Event{Op: OpRead, Name: f.name}, "read", func() (err error) {
		n, err = f.inner.Read(p)
		return err
	})
	return n, err
}

// Write writes to the wrapped file (operation [OpWrite]). An injected error
// from a rule or a Before hook writes nothing; one from an After hook comes
// after the bytes were written.
func (f *File) Write(p []byte) (n int, err error) {
	err = f.fs.do(Event{Op: OpWrite, Name: f.name}, "write", func() (err error) {
		n, err = f.inner.Write(p)
		return err
	})
	return n, err
}

// WriteAt writes to the wrapped file at off through its io.WriterAt
// (operation [OpWrite], as Write). A wrapped file without one fails with a
// *fs.PathError (Op "write") wrapping errors.ErrUnsupported, and no hook
// or rule sees the call.
func (f *File) WriteAt(p []byte, off int64) (n int, err error) {
	at, ok := f.inner.(io.WriterAt)
	if !ok {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: errors.ErrUnsupported}
	}
	err = f.fs.do(Event{Op: OpWrite, Name: f.name}, "write", func() (err error) {
		n, err = at.WriteAt(p, off)
		return err
	})
	return n, err
}

// Sync commits the wrapped file (operation [OpSync]).
func (f *File) Sync() error {
	return f.fs.do(Event{Op: OpSync, Name: f.name}, "sync", f.inner.Sync)
}

// Close closes the wrapped file (operation [OpClose]). The wrapped file is
// closed even when the call fails by a rule or a Before hook, as a failed
// close(2) still releases the descriptor; the After hooks run once it is.
func (f *File) Close() error {
	ev := Event{Op: OpClose, Name: f.name}
	err := f.fs.begin(ev, "close")
	if cerr := f.inner.Close(); err == nil {
		err = cerr
	}
	return f.fs.end(ev, "close", err)
}

// Stat returns the wrapped file's information.
func (f *File) Stat() (fs.FileInfo, error) { return f.inner.Stat() }

// ReadDir lists the wrapped file, an open directory.
func (f *File) ReadDir(n int) ([]fs.DirEntry, error) { return f.inner.ReadDir(n) }

// TryLock takes the wrapped file's advisory lock through its [vfs.Locker],
// or fails with a *fs.PathError wrapping errors.ErrUnsupported.
func (f *File) TryLock() error { return vfs.TryLock(f.inner, f.name) }

// Unlock releases the wrapped file's advisory lock through its
// [vfs.Locker], or fails with a *fs.PathError wrapping
// errors.ErrUnsupported.
func (f *File) Unlock() error {
	if l, ok := f.inner.(vfs.Locker); ok {
		return l.Unlock()
	}
	return &fs.PathError{Op: "funlock", Path: f.name, Err: errors.ErrUnsupported}
}

// FileKey returns the wrapped file's key from its handle through its
// [vfs.FileKeyer], or fails with a *fs.PathError (Op "filekey") wrapping
// errors.ErrUnsupported.
func (f *File) FileKey() (vfs.FileKey, error) {
	if k, ok := f.inner.(vfs.FileKeyer); ok {
		return k.FileKey()
	}
	return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.name, Err: errors.ErrUnsupported}
}
