package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrTooLarge is wrapped by [ReadFile] when a file is longer than the limit
// the caller gave.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by [ReadFile] when name is not a regular file (a
// directory, a FIFO, a device).
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads the whole file name, or at most limit bytes when limit > 0:
// a longer file fails with a *fs.PathError wrapping [ErrTooLarge] (the bytes
// are not returned). Anything but a regular file fails with one wrapping
// [ErrNotRegular], without blocking (it is opened with [ReadFlags]). It
// returns the file information from the same handle.
func ReadFile(fsys FS, name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := fsys.OpenFile(name, ReadFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	return data, fi, nil
}

// WriteFileExclusive creates name exclusively (O_CREATE|O_EXCL) with
// permission bits perm, writes data, optionally syncs it, and closes it. When
// a step after the create fails, the handle is closed and the file is left in
// place: the caller decides whether it may remove it.
func WriteFileExclusive(fsys FS, name string, data []byte, perm fs.FileMode, sync bool) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
