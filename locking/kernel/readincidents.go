package kernel

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
)

// Incidents is what [ReadIncidents] read of an incident log.
type Incidents struct {
	// Rows are the rows read, oldest first (newest last).
	Rows []Incident
	// Skipped counts the lines that were no row: torn, too long, not
	// JSON, not of [IncidentKind].
	Skipped int
	// Truncated is true when the file was longer than the cap and only its
	// first IncidentCap+MaxIncidentRow bytes were read.
	Truncated bool
}

// ReadIncidents reads the incident log of name ("<name>.lock.incidents.jsonl")
// without taking any lock, and reads any content without harm: at most
// IncidentCap+MaxIncidentRow bytes of it, every line that is no row
// counted in Skipped. An absent log is no rows and no error.
//
// Errors: the file system's (*fs.PathError); one wrapping
// vfs.ErrNotRegular when the log is not a regular file (it is never
// opened for a blocking read).
func ReadIncidents(fsys vfs.FS, name string) (Incidents, error) {
	log := name + incidentsSuffix
	f, err := fsys.OpenFile(log, vfs.ReadFlags, 0)
	if err != nil {
		if errorsIsNotExist(err) {
			return Incidents{}, nil
		}
		return Incidents{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Incidents{}, err
	}
	if !fi.Mode().IsRegular() {
		return Incidents{}, &fs.PathError{Op: "read", Path: log, Err: vfs.ErrNotRegular}
	}
	const limit = IncidentCap + MaxIncidentRow
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return Incidents{}, err
	}
	out := parseIncidents(data[:min(len(data), limit)])
	out.Truncated = len(data) > limit
	return out, nil
}

// parseIncidents reads the rows of data: each line ended by a newline, at
// most MaxIncidentRow bytes, one JSON object of IncidentKind. A last line
// without its newline is torn (an append cut short) and skipped.
func parseIncidents(data []byte) Incidents {
	var out Incidents
	for len(data) > 0 {
		line, rest, ok := bytes.Cut(data, []byte{'\n'})
		data = rest
		if !ok || len(line)+1 > MaxIncidentRow {
			out.Skipped++
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var row Incident
		if json.Unmarshal(line, &row) != nil || row.Kind != IncidentKind {
			out.Skipped++
			continue
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}
