package kernel

import (
	"fmt"
	"os"
	"time"

	"github.com/pa-toolkit/pa/internal/incidentlog"
	"github.com/pa-toolkit/pa/vfs"
)

// IncidentKind is the kind of every incident row.
const IncidentKind = "file_lock_incident_v0"

// The bounds of the incident log, in bytes.
const (
	// IncidentCap is the most bytes the incident log grows to: a row that
	// would take it past the cap is dropped, and the next row this process
	// writes counts the drops (Incident DroppedBefore).
	IncidentCap = incidentlog.Cap
	// MaxIncidentRow is the longest row, its newline included.
	MaxIncidentRow = incidentlog.MaxRow
)

// Incident is one row of "<file>.lock.incidents.jsonl" (design: Holder And
// Incident Records), one JSON object a line. Its strings are as written:
// a row read back is untrusted text, so a caller escapes its values
// before showing them. Times are RFC 3339 UTC strings.
type Incident struct {
	// Kind is [IncidentKind].
	Kind string `json:"kind"`
	// Time is when the waiter timed out.
	Time string `json:"time"`
	// LockID is the lock's stable hashed id ([LockID]).
	LockID string `json:"lock_id"`
	// Policy is the waiter's policy.
	Policy string `json:"policy"`
	// WaitedMS is how long the waiter tried, in milliseconds.
	WaitedMS int64 `json:"waited_ms"`
	// Holder is the holder as its record said at the timeout; absent when
	// it could not be read, HolderState then saying why.
	Holder *Party `json:"holder,omitempty"`
	// HolderState is the evidence of the holder's state: "recorded", or
	// why the record is no proof of who holds the lock.
	HolderState string `json:"holder_state"`
	// Waiter is the process that timed out.
	Waiter Party `json:"waiter"`
	// OperatorAction is the design's recovery, for this holder.
	OperatorAction string `json:"operator_action"`
	// DroppedBefore counts the rows this process dropped at the cap since
	// the last row it wrote.
	DroppedBefore int64 `json:"dropped_before,omitempty"`
}

// Party is a holder or a waiter in an incident row: PID, Hostname,
// Agent, Operation, AcquiredAt and ReleasedAt (the holder's), WaitFrom
// (the waiter's first attempt); the kernel lock writes no State or
// Evidence.
type Party = incidentlog.Party

// dropped counts the rows this process dropped at the cap since its last
// written row.
var dropped incidentlog.Drops

// timeout reads the holder, appends the incident row (waiting for it at
// most o.IncidentWait) and returns the *TimeoutError. It never takes the
// lock: the row goes to its own file with O_APPEND.
func timeout(fsys vfs.FS, name string, o Options, start time.Time, waited time.Duration) *TimeoutError {
	rec, rerr := o.layout.readRecord(fsys, name)
	te := &TimeoutError{Lock: name + lockSuffix, Policy: o.Policy, Waited: waited, Holder: rec, HolderErr: rerr}
	now := o.wallNow().UTC()
	row := Incident{
		Kind: IncidentKind, Time: now.Format(timeLayout), LockID: LockID(name),
		Policy: o.Policy.String(), WaitedMS: waited.Milliseconds(),
		Waiter: Party{PID: os.Getpid(), Hostname: hostname(), Agent: o.Agent, Operation: o.Operation,
			WaitFrom: now.Add(-waited).Format(timeLayout)},
	}
	switch {
	case rerr != nil:
		row.HolderState = clip(fmt.Sprintf("unreadable record: %v", rerr))
	case rec.ReleasedAt != "":
		row.HolderState = "record says released: the process holding the kernel lock has not written its record yet, or wrote none"
	default:
		row.HolderState = "recorded"
	}
	if rerr == nil {
		row.Holder = &Party{PID: rec.PID, Hostname: rec.Hostname, Agent: rec.Agent, Operation: rec.Operation,
			AcquiredAt: rec.AcquiredAt, ReleasedAt: rec.ReleasedAt}
	}
	row.OperatorAction = operatorAction(row.Holder, o.Policy.String())
	te.Incident = incidentlog.Within(o.incidentWait(), func() error {
		return appendIncident(fsys, name+incidentsSuffix, row, o.cap())
	})
	return te
}

// operatorAction is the design's Operator Recovery, for holder h.
func operatorAction(h *Party, pol string) string {
	who := "the process holding the kernel lock (its record is unreadable: find it by the open handles of the lock file)"
	if h != nil {
		who = fmt.Sprintf("pid %d on host %q (agent %q, operation %q, acquired %s)", h.PID, h.Hostname, h.Agent, h.Operation, h.AcquiredAt)
	}
	return "1. inspect " + who + "; 2. confirm the process is still present and actually stalled; " +
		"3. end it only after that confirmation and within your existing authority; " +
		"4. retry under the " + pol + " policy once it has exited. Never delete the lock file: the kernel frees the lock when its holder exits."
}

// appendIncident appends row to the incident log name (incidentlog.Append),
// unless the log would pass limit bytes.
func appendIncident(fsys vfs.FS, name string, row Incident, limit int64) error {
	return incidentlog.Append(fsys, name, limit, &dropped, func(n int64) []byte {
		row.DroppedBefore = n
		return encodeRow(row)
	})
}

// encodeRow returns row's JSON line, at most MaxIncidentRow bytes: a row
// longer than that (a hostile holder record, escaped) loses its holder.
func encodeRow(row Incident) []byte {
	return incidentlog.Line(row, func() any {
		row.Holder = nil
		row.HolderState = "record too long for a row"
		row.OperatorAction = operatorAction(nil, row.Policy)
		return row
	})
}
