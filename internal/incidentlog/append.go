package incidentlog

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"sync/atomic"

	"github.com/pa-toolkit/pa/vfs"
)

// ErrFull is [Append]'s error when its row was dropped because the log is
// at its cap.
var ErrFull = errors.New("incident log at its cap; row dropped")

// Drops counts the rows a process dropped at a log's cap since the last
// row it wrote; its zero value counts none. It is safe for concurrent use.
type Drops struct{ n atomic.Int64 }

// Reset forgets the drops counted (for tests).
func (d *Drops) Reset() { d.n.Store(0) }

// Append appends the line encode returns to the log name, with one write
// of an O_APPEND handle (on unix also O_NONBLOCK, so that a FIFO at the
// name never blocks the open), unless the log would then pass limit
// bytes: the row is dropped, counted in d, and ErrFull returned. encode
// is given the drops counted so far, to write in the row; they are
// uncounted once the row is written. It takes no lock.
//
// Errors: ErrFull; the file system's (*fs.PathError); one wrapping
// vfs.ErrNotRegular when the name is not a regular file.
func Append(fsys vfs.FS, name string, limit int64, d *Drops, encode func(droppedBefore int64) []byte) error {
	n := d.n.Load()
	data := encode(n)
	f, err := fsys.OpenFile(name, AppendFlags, 0o644)
	if err != nil {
		return err
	}
	if err := appendOne(f, name, data, limit, d); err != nil {
		f.Close()
		return err
	}
	d.n.Add(-n)
	return f.Close()
}

// appendOne writes data to f, the open log, with one write, unless f is
// not a regular file or data would take it past limit.
func appendOne(f vfs.File, name string, data []byte, limit int64, d *Drops) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "append", Path: name, Err: vfs.ErrNotRegular}
	}
	if tornTail(f, fi.Size()) {
		// A row cut short (a power cut, a hand edit) ends the log with no
		// newline: this row starts on a line of its own, not glued to it.
		data = append([]byte{'\n'}, data...)
	}
	if fi.Size()+int64(len(data)) > limit {
		d.n.Add(1)
		return ErrFull
	}
	_, err = f.Write(data)
	return err
}

// tornTail reports whether the log f, size bytes long, ends with a byte
// that is not a newline, as read through f (or the file a wrapper of it
// wraps) where it can read at an offset: the real OS's. Where it cannot,
// or the read fails, it is false. Two appenders that both find it torn
// leave a blank line, which a reader passes over.
func tornTail(f vfs.File, size int64) bool {
	if size == 0 {
		return false
	}
	r := readerAtOf(f)
	if r == nil {
		return false
	}
	var last [1]byte
	n, _ := r.ReadAt(last[:], size-1)
	return n == 1 && last[0] != '\n'
}

// readerAtOf is f, or the file a wrapper of it wraps, that can read at
// an offset (unwrapTo); nil when none can.
func readerAtOf(f vfs.File) io.ReaderAt { return unwrapTo[io.ReaderAt](f) }

// Line returns row's JSON line, newline included, at most MaxRow bytes
// when shorter's row is: when row's line is longer (a hostile holder
// record, escaped), shorter's, the caller's row without its untrusted
// values. Both rows are of strings and numbers, which always marshal.
func Line(row any, shorter func() any) []byte {
	b, _ := json.Marshal(row)
	if len(b) >= MaxRow {
		b, _ = json.Marshal(shorter())
	}
	return append(b, '\n')
}
