package lockspec

import (
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/internal/incidentlog"
	"github.com/pa-toolkit/pa/vfs"
)

// The fail-safe lock's incident log (issue 17, part 3; the kernel-lock
// design's "Holder And Incident Records"): "<lock>.incidents.jsonl"
// beside the lock ([IncidentsName]), one [Incident] a line, appended by a
// timeout, an automatic break and a forced unlock with one write of an
// O_APPEND handle (internal/incidentlog), never under the lock. No lock
// anchors on it: the sweep, the listings of the names beside the lock and
// Unlock never touch it (its name has none of their prefixes).

// IncidentKind is the kind of every incident row, the kernel lock's.
const IncidentKind = "file_lock_incident_v0"

// The events of incident rows (Incident Event).
const (
	// EventTimeout: a writer waited out its timeout ([TimeoutError]).
	EventTimeout = "timeout"
	// EventBreak: a writer broke the lock of a provably dead holder (the
	// one automatic break).
	EventBreak = "break"
	// EventForce: [Unlock] with force removed a lock.
	EventForce = "force"
)

// The bounds of the incident log, in bytes: the kernel lock's.
const (
	// IncidentCap is the most bytes the log grows to: a row that would
	// pass it is dropped, and the next row this process writes counts the
	// drops (Incident DroppedBefore).
	IncidentCap = incidentlog.Cap
	// MaxIncidentRow is the longest row, its newline included.
	MaxIncidentRow = incidentlog.MaxRow
)

// DefaultIncidentWait is how long a timeout, a break or a forced unlock
// waits for its row's append before it goes on ([Options] IncidentWait).
const DefaultIncidentWait = 250 * time.Millisecond

// ErrIncidentStalled is a [TimeoutError]'s Incident when the append of its
// row did not end within [Options] IncidentWait.
var ErrIncidentStalled = incidentlog.ErrStalled

// ErrIncidentsFull is a [TimeoutError]'s Incident when its row was dropped
// because the log is at [IncidentCap].
var ErrIncidentsFull = incidentlog.ErrFull

// IncidentParty is a holder, a waiter or the process that broke or forced
// a lock, in an incident row (the kernel lock's Party): pid, hostname,
// agent, operation; a holder's acquiredAt, state ("alive", "dead", ...:
// [State] String) and evidence ([Holder] Evidence); a waiter's
// waitingSince.
type IncidentParty = incidentlog.Party

// Incident is one row of the incident log, one JSON object a line. Its
// strings are as written: a row read back is untrusted text (a holder's
// hostname is its record's), so a caller escapes its values before
// showing them. Times are RFC 3339 UTC strings.
type Incident struct {
	// Kind is [IncidentKind].
	Kind string `json:"kind"`
	// Event is [EventTimeout], [EventBreak] or [EventForce].
	Event string `json:"event"`
	// Time is when it happened.
	Time string `json:"time"`
	// LockID is the lock's stable hashed id ([LockID]).
	LockID string `json:"lock_id"`
	// Policy is the acting process's policy label ([Options] Policy), ""
	// when it gave none.
	Policy string `json:"policy,omitempty"`
	// WaitedMS is how long a timed-out waiter waited, in milliseconds.
	WaitedMS int64 `json:"waited_ms,omitempty"`
	// Holder is the lock's holder as read and judged; nil only when its
	// record was too long for a row.
	Holder *IncidentParty `json:"holder,omitempty"`
	// Waiter is the writer that timed out (EventTimeout).
	Waiter *IncidentParty `json:"waiter,omitempty"`
	// By is the process that broke or forced the lock (EventBreak,
	// EventForce).
	By *IncidentParty `json:"by,omitempty"`
	// OperatorAction is what an operator does next, in words that name no
	// command.
	OperatorAction string `json:"operator_action"`
	// DroppedBefore counts the rows this process dropped at the cap since
	// the last row it wrote.
	DroppedBefore int64 `json:"dropped_before,omitempty"`
}

// IncidentsName is the incident log of the lock on name (the guarded
// file's name): [LockName](name) + ".incidents.jsonl", as the kernel
// lock's "<file>.lock.incidents.jsonl".
func IncidentsName(name string) string { return LockName(name) + incidentsSuffix }

const incidentsSuffix = ".incidents.jsonl"

// drops counts the rows this process dropped at the cap.
var drops incidentlog.Drops

// incident appends the row of event on n's lock, held by holder, waiting
// for it at most e.incidentWait, and returns the append's outcome (nil,
// the FS's error, ErrIncidentsFull or ErrIncidentStalled). The row goes
// to its own file; no lock is taken.
func (e *env) incident(fsys vfs.FS, n names, event string, holder Holder, waited time.Duration) error {
	now := e.now().UTC()
	self := &IncidentParty{PID: n.pid, Hostname: e.host.Hostname(), Agent: e.agent, Operation: e.operation}
	row := Incident{
		Kind: IncidentKind, Event: event, Time: now.Format(timeLayout), LockID: LockID(n.target),
		Policy: e.policy, Holder: holderParty(holder),
	}
	if event == EventTimeout {
		row.WaitedMS = waited.Milliseconds()
		self.WaitFrom = now.Add(-waited).Format(timeLayout)
		row.Waiter = self
	} else {
		row.By = self
	}
	row.OperatorAction = operatorAction(event, row.Holder)
	log := n.lock + incidentsSuffix
	return incidentlog.Within(e.incidentWait, func() error {
		return incidentlog.Append(fsys, log, e.incidentCap, &drops, func(dropped int64) []byte {
			row.DroppedBefore = dropped
			return encodeIncident(row)
		})
	})
}

// tellIncident tells the OnIncidentError observer that the row of event
// on lock was not appended (err not nil); nothing when it was or there is
// no observer.
func (e *env) tellIncident(lock, event string, err error) {
	if err != nil && e.onIncident != nil {
		e.onIncident(lock, event, err)
	}
}

// holderParty is h as an incident row names it.
func holderParty(h Holder) *IncidentParty {
	return &IncidentParty{PID: h.PID, Hostname: h.Hostname, Agent: h.Agent, Operation: h.Operation,
		AcquiredAt: h.AcquiredAt, State: h.State.String(), Evidence: h.Evidence}
}

// encodeIncident is row's line, at most MaxIncidentRow bytes: a holder
// whose record is too long for a row (a hostile hostname) is named by its
// pid and state only.
func encodeIncident(row Incident) []byte {
	return incidentlog.Line(row, func() any {
		if row.Holder != nil {
			row.Holder = &IncidentParty{PID: row.Holder.PID, State: row.Holder.State, Evidence: "record too long for a row"}
		}
		row.OperatorAction = operatorAction(row.Event, row.Holder)
		return row
	})
}

// operatorAction is what an operator does after event on a lock held by
// h (the design's Operator Recovery), naming no command.
func operatorAction(event string, h *IncidentParty) string {
	who := "the holder named in the lock's record"
	if h != nil {
		who = fmt.Sprintf("pid %d on host %q (agent %q, operation %q, acquired %q, judged %s", h.PID, h.Hostname, h.Agent, h.Operation, h.AcquiredAt, h.State)
		if h.Evidence != "" {
			who += ": " + h.Evidence
		}
		who += ")"
	}
	if h != nil && h.PID == 0 {
		return noHolderAction(event, h)
	}
	switch event {
	case EventBreak:
		return "none needed: " + who + " was provably dead and its lock was broken; this row records it"
	case EventForce:
		return "the lock of " + who + " was removed by force: confirm that process had stopped, since a live one may still write the guarded file"
	}
	return "1. inspect " + who + "; 2. confirm the process is still present and actually stalled; " +
		"3. end it only after that confirmation and within your existing authority; " +
		"4. retry once it has exited: a dead holder's lock is broken by the next writer on its host, " +
		"and one of another host is removed only by a forced unlock after that confirmation"
}

// noHolderAction is operatorAction for a lock that names no holder (an
// empty or torn lock, another shape, a directory that is no lock): no pid
// to inspect, and nothing proves a writer dead, so it is never broken by
// itself.
func noHolderAction(event string, h *IncidentParty) string {
	what := "the lock names no holder (judged " + h.State
	if h.Evidence != "" {
		what += ": " + h.Evidence
	}
	what += ")"
	if event == EventForce {
		return what + " and was removed by force: confirm no writer was still writing it"
	}
	return "1. inspect the lock file: " + what + ", so nothing proves a writer dead and it is never broken by itself; " +
		"2. an empty lock may be one an older writer is still writing: confirm no writer of this file is running; " +
		"3. then remove it by a forced unlock"
}
