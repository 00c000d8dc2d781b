package incidentlog

// Party is a process named in an incident row: a lock's holder, a waiter
// that timed out, the process that broke or forced a lock. Its strings
// are as written (a holder's come from its record, untrusted): a reader
// escapes them before showing them. Times are RFC 3339 UTC strings.
type Party struct {
	// PID is the process id, on Hostname.
	PID int `json:"pid"`
	// Hostname is the process's host.
	Hostname string `json:"hostname"`
	// Agent is the process's agent label.
	Agent string `json:"agent,omitempty"`
	// Operation is the process's operation label.
	Operation  string `json:"operation,omitempty"`
	AcquiredAt string `json:"acquiredAt,omitempty"`   // the holder's
	ReleasedAt string `json:"releasedAt,omitempty"`   // the holder's, when its record says so
	WaitFrom   string `json:"waitingSince,omitempty"` // the waiter's first attempt
	// State is the holder's judgement, where the lock judges one (the
	// fail-safe lock: "alive", "dead", ...).
	State string `json:"state,omitempty"`
	// Evidence is what decided State (the fail-safe lock's evidence).
	Evidence string `json:"evidence,omitempty"`
}
