package kernel

import (
	"github.com/pa-toolkit/pa/internal/incidentlog"
	"github.com/pa-toolkit/pa/vfs"
)

// Incidents is what [ReadIncidents] read of an incident log.
type Incidents struct {
	// Rows are the rows read, oldest first (newest last).
	Rows []Incident
	// Skipped counts the lines that were no row: torn, too long, not
	// JSON, not of [IncidentKind].
	Skipped int
	// Truncated is true when the file was longer than the cap and only
	// IncidentCap+MaxIncidentRow bytes of it were read: its last ones
	// (the newest rows) where its open file can seek, as the real OS's
	// can; else its first ones.
	Truncated bool
	// Full is true when the log is within MaxIncidentRow bytes of
	// IncidentCap: a row that would pass the cap is dropped
	// (ErrIncidentsFull), so new rows are no longer recorded; moving the
	// log aside starts a new one.
	Full bool
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
	r, err := incidentlog.Read(fsys, name+incidentsSuffix, isIncident)
	return Incidents(r), err
}

// parseIncidents reads the rows of data (incidentlog.Parse).
func parseIncidents(data []byte) Incidents { return Incidents(incidentlog.Parse(data, isIncident)) }

// isIncident reports whether row is of IncidentKind.
func isIncident(row *Incident) bool { return row.Kind == IncidentKind }
