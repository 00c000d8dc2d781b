package incidentlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
)

// Rows is what [Read] read of a log.
type Rows[T any] struct {
	// Rows are the rows read, oldest first (newest last).
	Rows []T
	// Skipped counts the lines that were no row: torn, longer than
	// MaxRow, not JSON, or refused by the caller's check (another kind).
	Skipped int
	// Truncated is true when the file was longer than Cap+MaxRow bytes
	// and only Cap+MaxRow of them were read: its last ones (from the
	// first whole line in them), so that the newest rows are kept, where
	// the open file can seek (an io.Seeker: the real OS's); else its
	// first ones.
	Truncated bool
	// Full is true when the file is within MaxRow bytes of Cap (or past
	// it): an append that would pass Cap is dropped ([ErrFull]), so new
	// rows are no longer recorded, or only the shortest; moving the log
	// aside starts a new one.
	Full bool
}

// Read reads the log name without taking any lock, and reads any content
// without harm: at most Cap+MaxRow bytes of it (its last ones where the
// file can seek: Rows.Truncated), every line that is no row (Parse)
// counted in Skipped. An absent log is no rows and no error.
//
// Errors: the file system's (*fs.PathError); one wrapping
// vfs.ErrNotRegular when the name is not a regular file (it is opened
// with vfs.ReadFlags, so a FIFO never blocks the open).
func Read[T any](fsys vfs.FS, name string, isRow func(*T) bool) (Rows[T], error) {
	f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Rows[T]{}, nil
		}
		return Rows[T]{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Rows[T]{}, err
	}
	if !fi.Mode().IsRegular() {
		return Rows[T]{}, &fs.PathError{Op: "read", Path: name, Err: vfs.ErrNotRegular}
	}
	const limit = Cap + MaxRow
	tail := false
	if s := seekerOf(f); s != nil && fi.Size() > limit {
		if _, err := s.Seek(fi.Size()-limit, io.SeekStart); err == nil {
			tail = true
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return Rows[T]{}, err
	}
	data = data[:min(len(data), limit)]
	torn := 0
	if tail {
		// The read began inside a line: that line's end is no row.
		if _, rest, ok := bytes.Cut(data, []byte{'\n'}); ok {
			data, torn = rest, 1
		}
	}
	out := Parse(data, isRow)
	out.Skipped += torn
	out.Truncated = tail || fi.Size() > limit
	out.Full = fi.Size() > Cap-MaxRow
	return out, nil
}

// Parse reads the rows of data: each line ended by a newline, at most
// MaxRow bytes, one JSON object that isRow accepts (its kind). A last line
// without its newline is torn (an append cut short) and skipped; blank
// lines are neither rows nor skipped.
func Parse[T any](data []byte, isRow func(*T) bool) Rows[T] {
	var out Rows[T]
	for len(data) > 0 {
		line, rest, ok := bytes.Cut(data, []byte{'\n'})
		data = rest
		if !ok || len(line)+1 > MaxRow {
			out.Skipped++
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var row T
		if json.Unmarshal(line, &row) != nil || !isRow(&row) {
			out.Skipped++
			continue
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// seekerOf is f, or the file a wrapper of it wraps, that can seek
// (unwrapTo); nil when none can. Seeking it moves f's offset too: they
// are one open file.
func seekerOf(f vfs.File) io.Seeker { return unwrapTo[io.Seeker](f) }

// unwrapTo is f as a T, or the file a wrapper of it wraps (Unwrap()
// vfs.File, as faultfs's files have) as a T, at most eight wrappers deep;
// the zero T when none is one.
func unwrapTo[T any](f vfs.File) T {
	for range 8 {
		if t, ok := f.(T); ok {
			return t
		}
		u, ok := f.(interface{ Unwrap() vfs.File })
		if !ok {
			break
		}
		f = u.Unwrap()
	}
	var zero T
	return zero
}
