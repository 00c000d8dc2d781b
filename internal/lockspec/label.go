package lockspec

import (
	"fmt"

	"github.com/pa-toolkit/pa/locking/policy"
)

// The holder's public-safe fields of the record (issue 17, part 2; the
// kernel-lock design's "Holder And Incident Records"): lock_id, agent,
// operation and policy. A record never holds a path, an environment
// variable or a command line: the labels are checked on the way in
// (checkLabels) and on the way back (parseLabels).

// MaxLabel is the longest agent or operation label, in bytes
// ([policy.MaxLabel]).
const MaxLabel = policy.MaxLabel

// LabelError is returned by [Acquire], [Update] and [UpdateMapped],
// before any file is touched, when [Options] Agent, Operation or Policy is
// not a public-safe label: Field is "agent", "operation" or "policy". Its
// code is [policy.CodeInvalidLabel].
type LabelError struct {
	// Lock is the lock's name in the FS (the guarded file's name +
	// ".lock"), whole and unescaped.
	Lock string
	// Field is "agent", "operation" or "policy".
	Field string
}

// Error names the field and what it may hold, never the value given
// (which may be a path or a secret).
func (e *LabelError) Error() string {
	if e.Field == "policy" {
		return fmt.Sprintf("lock %s: the holder's policy must be mutation, monitor or single_flight (or none); nothing was written", e.Lock)
	}
	return fmt.Sprintf("lock %s: the holder's %s must be at most %d letters, digits, spaces or ._:@+- (never a path, an environment variable or a command line); nothing was written", e.Lock, e.Field, MaxLabel)
}

// ErrorCode returns [policy.CodeInvalidLabel].
func (e *LabelError) ErrorCode() policy.Code { return policy.CodeInvalidLabel }

// ValidLabel reports whether s may be a record's agent or operation
// ([policy.ValidLabel]). The empty label is valid: not recorded.
func ValidLabel(s string) bool { return policy.ValidLabel(s) }

// validPolicy reports whether s may be a record's policy: "" (not
// recorded) or a policy's stable name (policy.Policy.String).
func validPolicy(s string) bool {
	switch s {
	case "", policy.Mutation.String(), policy.Monitor.String(), policy.SingleFlight.String():
		return true
	}
	return false
}

// validLockID reports whether s may be a record's lock_id: "lk_" and 16
// lowercase hex digits, as LockID makes it.
func validLockID(s string) bool {
	if len(s) != len("lk_")+16 || s[:3] != "lk_" {
		return false
	}
	for i := 3; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// LockID returns the stable hashed id of the lock on name, the guarded
// file's slash-separated name in its FS ([policy.LockID]: the kernel
// lock's too, so the two locks' records and incident rows of one file
// agree). It never holds the path itself.
func LockID(name string) string { return policy.LockID(name) }

// checkLabels refuses, for the lock lock, labels a record must not hold
// (Options Agent, Operation, Policy).
func (e *env) checkLabels(lock string) error {
	switch {
	case !ValidLabel(e.agent):
		return &LabelError{Lock: lock, Field: "agent"}
	case !ValidLabel(e.operation):
		return &LabelError{Lock: lock, Field: "operation"}
	case !validPolicy(e.policy):
		return &LabelError{Lock: lock, Field: "policy"}
	}
	return nil
}
