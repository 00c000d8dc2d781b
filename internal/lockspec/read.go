package lockspec

import (
	"bytes"
	"io"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// lockFile is a lock (or a moved lock) as read, not yet judged.
type lockFile struct {
	data      []byte // at most MaxLockBytes+1 bytes
	size      int64
	fileTime  time.Time
	irregular fs.FileInfo // not nil when the name is neither a regular file nor a directory

	// A directory at the name (the directory publish: dirlock.go): dir is
	// set, entries is how many entries it holds, and, when it holds just
	// one regular file, marker is that file's name and data, size and
	// fileTime are the file's.
	dir     bool
	entries int
	marker  string
}

// readLockBytes reads a lock's bytes and size, as readLock does, for a
// check of its bytes (the fence, a moved lock): where the FS can lstat, the
// open handle is not stat'ed again (its file time is not needed, and what
// is read is only ever compared with known bytes), so a name replaced
// between the two calls reads as other bytes, never as this hold's.
func readLockBytes(fsys vfs.FS, name string) (lockFile, error) {
	return readLock(fsys, name, false)
}

func readLock(fsys vfs.FS, name string, oneHandle bool) (lockFile, error) {
	return readLockThen(fsys, name, oneHandle, nil)
}

// readLockThen is readLock, calling then, when not nil, with the handle
// the bytes of a regular file were read from and that file's name (name,
// or the marker inside a directory lock), before it is closed (a judge
// tries the kernel lock on it).
func readLockThen(fsys vfs.FS, name string, oneHandle bool, then func(vfs.File, string, lockFile)) (lockFile, error) {
	lfi, lerr := fsys.Lstat(name)
	if lerr == nil && lfi.IsDir() {
		return readDirLock(fsys, name, lfi, then)
	}
	if lerr == nil && !lfi.Mode().IsRegular() {
		return lockFile{irregular: lfi, fileTime: lfi.ModTime()}, nil
	}
	f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		return lockFile{}, err
	}
	defer f.Close()
	fi := lfi
	if oneHandle || lerr != nil {
		if fi, err = f.Stat(); err != nil {
			return lockFile{}, err
		}
		if fi.IsDir() {
			return readDirLock(fsys, name, fi, then)
		}
		if !fi.Mode().IsRegular() {
			return lockFile{irregular: fi, fileTime: fi.ModTime()}, nil
		}
	}
	data, err := readUpTo(f, fi.Size(), MaxLockBytes+1)
	if err != nil {
		return lockFile{}, err
	}
	size := fi.Size()
	if int64(len(data)) > size {
		size = int64(len(data)) // grew since the stat
	}
	lf := lockFile{data: data, size: size, fileTime: fi.ModTime()}
	if then != nil {
		then(f, name, lf)
	}
	return lf, nil
}

// readUpTo reads r to its end, or limit bytes. A file no longer than the
// size it was stat'ed with is read with one read(2): a read that returns
// exactly size bytes into a larger buffer has reached the end.
func readUpTo(r io.Reader, size, limit int64) ([]byte, error) {
	n := size + 1
	if n <= 0 || n > limit {
		n = limit
	}
	buf := make([]byte, 0, n)
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(int64(cap(buf)), limit)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if int64(len(buf)) == size && len(buf) < cap(buf) && m > 0 {
			break // all the stat'ed bytes in a buffer with room to spare
		}
	}
	return buf, nil
}

// readLock reads a lock and judges it.
// A lock whose record claims a kernel lock is judged with the handle its
// bytes were read from still open, so that the kernel lock tried is the
// one of the file whose bytes were judged.
func (e *env) readLock(fsys vfs.FS, name string) (Holder, error) {
	var h Holder
	lf, err := readLockThen(fsys, name, true, func(f vfs.File, fname string, lf lockFile) {
		h = e.judge(lf.data, lf.size, lf.fileTime, func(claimed vfs.FileKey) kernelState {
			return probeKernel(fsys, f, fname, claimed)
		})
	})
	if err != nil {
		return Holder{}, err
	}
	if lf.irregular != nil {
		return e.judgeIrregular(lf.irregular), nil
	}
	if lf.dir {
		return e.judgeDir(lf, h), nil
	}
	return h, nil
}

// sameLock reports whether two reads are of the same lock: the same bytes
// (spec: Break, step 2; a lock's bytes are its identity on both classes,
// since every lock carries a random token). For a file longer than what is
// read, the length must match too; for a directory, its shape (dirlock.go).
func sameLock(a, b Holder) bool {
	if a.Directory || b.Directory {
		// A directory's Mode is its judgement (fs.ModeDir when
		// unreadable), which a moved lock's read has not: its marker,
		// its entries and the marker's bytes are what it is.
		return a.Directory == b.Directory && a.marker == b.marker && a.entries == b.entries &&
			a.Size == b.Size && bytes.Equal(a.data, b.data)
	}
	return a.Size == b.Size && a.Mode == b.Mode && bytes.Equal(a.data, b.data)
}

// judgeIrregular judges a lock name that is not a regular file: unreadable,
// never broken automatically, with no bytes.
func (e *env) judgeIrregular(fi fs.FileInfo) Holder {
	h := e.judge(nil, 0, fi.ModTime(), nil)
	h.Mode = fi.Mode().Type()
	return h
}
