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
	// and only its first Cap+MaxRow were read.
	Truncated bool
}

// Read reads the log name without taking any lock, and reads any content
// without harm: at most Cap+MaxRow bytes of it, every line that is no
// row (Parse) counted in Skipped. An absent log is no rows and no error.
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
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return Rows[T]{}, err
	}
	out := Parse(data[:min(len(data), limit)], isRow)
	out.Truncated = len(data) > limit
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
