package locking

import (
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// The incident log of a lock (docs/spawn-log-lock.md,
// "The incident log"): "<name>.lock.incidents.jsonl" beside the lock,
// one [Incident] a line, appended by a timeout ([TimeoutError] Incident
// says how that went), an automatic break of a dead holder and a forced
// [Unlock], never under the lock and never past [IncidentCap] bytes. No
// lock anchors on it, and nothing of the lock removes it.

// IncidentKind is the kind of every incident row: "file_lock_incident_v0".
const IncidentKind = lockspec.IncidentKind

// The events of incident rows (Incident Event).
const (
	// EventTimeout ("timeout"): a writer waited out its timeout
	// (*TimeoutError) for a holder not provably dead.
	EventTimeout = lockspec.EventTimeout
	// EventBreak ("break"): a writer broke the lock of a provably dead
	// holder (the one automatic break).
	EventBreak = lockspec.EventBreak
	// EventForce ("force"): [Unlock] with force removed a lock.
	EventForce = lockspec.EventForce
)

// The bounds of an incident log, in bytes.
const (
	// IncidentCap is the most bytes an incident log grows to (1 MiB); a
	// row past it is dropped and the next one counts the drops.
	IncidentCap = lockspec.IncidentCap
	// MaxIncidentRow is the longest row, its newline included (4 KiB).
	MaxIncidentRow = lockspec.MaxIncidentRow
)

// DefaultIncidentWait is how long a timeout, a break or a forced unlock
// waits for its row's append (Options IncidentWait): 250 ms.
const DefaultIncidentWait = lockspec.DefaultIncidentWait

// The outcomes of an incident row's append that are no file-system error.
var (
	// ErrIncidentStalled is a [TimeoutError]'s Incident when its row's
	// append did not end within Options IncidentWait (it goes on,
	// unwaited).
	ErrIncidentStalled = lockspec.ErrIncidentStalled
	// ErrIncidentsFull is a [TimeoutError]'s Incident when its row was
	// dropped at [IncidentCap].
	ErrIncidentsFull = lockspec.ErrIncidentsFull
)

// Incident is one row of an incident log: kind, event, time, lock_id,
// policy, waited_ms, holder, waiter (a timeout's), by (a break's or a
// force's), operator_action, dropped_before. Its strings are untrusted
// text: escape them before showing them.
type Incident = lockspec.Incident

// IncidentParty is a process named in an [Incident]: pid, hostname,
// agent, operation, and a holder's acquiredAt, state and evidence or a
// waiter's waitingSince.
type IncidentParty = lockspec.IncidentParty

// Incidents is what [ReadIncidents] read: Rows (newest last), Skipped
// (lines that were no row), Truncated (the log was longer than
// IncidentCap+MaxIncidentRow bytes, the most read: the last ones, the
// newest rows, where the file can seek) and Full (the log is within
// MaxIncidentRow bytes of IncidentCap: new rows are dropped, not
// recorded, until it is moved aside).
type Incidents = lockspec.Incidents

// IncidentsName is the incident log of the lock on name:
// name + ".lock.incidents.jsonl".
func IncidentsName(name string) string { return lockspec.IncidentsName(name) }

// ReadIncidents reads the incident log of the lock on name without taking
// any lock; any content is read without harm (at most
// IncidentCap+MaxIncidentRow bytes; torn, long, non-JSON or other lines
// counted in Skipped). An absent log is no rows and no error. Errors: the
// file system's (*fs.PathError); one wrapping vfs.ErrNotRegular when the
// log is not a regular file.
func ReadIncidents(fsys vfs.FS, name string) (Incidents, error) {
	return lockspec.ReadIncidents(fsys, name)
}
