package vfs

import (
	"errors"
	"io"
	"io/fs"
	"math"
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
//
// The buffer is allocated once, from the size the handle reports (one byte
// more, to see the end of the file, and at most limit+1), as os.ReadFile
// does; a file that grew after that is still read whole, the buffer grown.
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
	data, err := readAll(f, fi.Size(), limit)
	if err != nil {
		return nil, nil, err
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	return data, fi, nil
}

// readAll reads r to its end, or to limit+1 bytes when limit > 0, into a
// buffer of size+1 bytes (at least 512, at most limit+1), grown only when
// there is more to read than size said.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	want := int64(512)
	if size >= want && size < math.MaxInt-1 {
		want = size + 1
	}
	if limit > 0 {
		want = min(want, limit+1)
	}
	data := make([]byte, 0, want)
	for {
		if limit > 0 && int64(len(data)) > limit {
			return data, nil // one byte past the limit is enough to refuse
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew: let append pick the room
		}
		end := cap(data)
		if limit > 0 {
			end = int(min(int64(end), limit+1))
		}
		n, err := r.Read(data[len(data):end])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// WriteFileExclusive creates name exclusively (O_CREATE|O_EXCL) with
// permission bits perm, writes data, optionally syncs it, and closes it. When
// a step after the create fails, the handle is closed and the file is left in
// place: the caller decides whether it may remove it.
func WriteFileExclusive(fsys FS, name string, data []byte, perm fs.FileMode, sync bool) error {
	return WritePartsExclusive(fsys, name, perm, sync, data)
}

// WritePartsExclusive is [WriteFileExclusive] with the content in parts:
// each is written in order, as it is (none is copied), so the file holds
// their concatenation. The first write that fails (an io.Writer that
// writes less than a part returns an error) ends it, with the handle closed
// and the file left in place, as WriteFileExclusive does.
func WritePartsExclusive(fsys FS, name string, perm fs.FileMode, sync bool, parts ...[]byte) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
