package lockspec

import (
	"github.com/pa-toolkit/pa/internal/incidentlog"
	"github.com/pa-toolkit/pa/vfs"
)

// Incidents is what [ReadIncidents] read of an incident log: its Rows
// (oldest first, newest last), how many lines were Skipped (torn, longer
// than [MaxIncidentRow], not JSON, not of [IncidentKind]) and whether it
// was Truncated (longer than IncidentCap+MaxIncidentRow bytes, the most
// read: the last ones, the newest rows, where the file can seek) or Full
// (within MaxIncidentRow bytes of IncidentCap: new rows are dropped).
type Incidents = incidentlog.Rows[Incident]

// ReadIncidents reads the incident log of the lock on name (the guarded
// file's name; [IncidentsName]) without taking any lock, and reads any
// content without harm: at most IncidentCap+MaxIncidentRow bytes, every
// line that is no row counted in Skipped. An absent log is no rows and
// no error.
//
// Errors: the file system's (*fs.PathError); one wrapping
// vfs.ErrNotRegular when the log is not a regular file (a directory, a
// FIFO: it is never opened for a blocking read).
func ReadIncidents(fsys vfs.FS, name string) (Incidents, error) {
	return incidentlog.Read(fsys, IncidentsName(name), isIncident)
}

// isIncident reports whether row is of IncidentKind.
func isIncident(row *Incident) bool { return row.Kind == IncidentKind }
