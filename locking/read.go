package locking

import (
	"bytes"
	"io"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
)

// readLock reads the lock (or a moved lock) through one handle, file time and
// bytes together, and judges it. At most maxLockBytes+1 bytes are read: a
// longer file is unreadable. A name that is not a regular file (a symlink, a
// directory, a FIFO) is judged unreadable without being followed or read:
// it is stat'ed without following a symlink where the FS can, and opened
// non-blocking. Errors are the FS's (fs.ErrNotExist when there is no lock).
func (e *env) readLock(fsys vfs.FS, name string) (Holder, error) {
	if fi, err := vfs.Lstat(fsys, name); err == nil && !fi.Mode().IsRegular() {
		return e.judgeIrregular(fi), nil
	}
	f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		return Holder{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Holder{}, err
	}
	if !fi.Mode().IsRegular() {
		return e.judgeIrregular(fi), nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxLockBytes+1))
	if err != nil {
		return Holder{}, err
	}
	size := fi.Size()
	if int64(len(data)) > size {
		size = int64(len(data)) // grew since the stat
	}
	return e.judge(data, size, fi.ModTime()), nil
}

// sameLock reports whether two reads are of the same lock: the same bytes
// (spec: Break, step 2; a lock's bytes are its identity on both classes,
// since every lock carries a random token). For a file longer than what is
// read, the length must match too.
func sameLock(a, b Holder) bool {
	return a.Size == b.Size && bytes.Equal(a.data, b.data)
}

// judgeIrregular judges a lock name that is not a regular file: unreadable,
// never broken automatically, with no bytes.
func (e *env) judgeIrregular(fi fs.FileInfo) Holder {
	h := e.judge(nil, 0, fi.ModTime())
	h.Mode = fi.Mode().Type()
	return h
}
