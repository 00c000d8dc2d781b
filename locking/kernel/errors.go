package kernel

import (
	"errors"
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/internal/incidentlog"
	"github.com/pa-toolkit/pa/locking/policy"
)

// The sentinels of the kernel lock's outcomes; match them with errors.Is.
var (
	// ErrTimeout is matched by every *[TimeoutError].
	ErrTimeout = errors.New("lock acquire timeout")
	// ErrHeld is matched by every *[HeldError]: a single_flight
	// acquisition found the lock held. It is an ordinary result ("someone
	// is already doing it"), not an incident.
	ErrHeld = errors.New("lock held")
	// ErrUnsupported is matched by every *[UnsupportedError]: the volume
	// has no kernel lock, or one that does not exclude.
	ErrUnsupported = errors.New("no exclusive kernel lock on this volume")
	// ErrIncidentStalled is a [TimeoutError]'s Incident when the append
	// of its row did not end within [Options] IncidentWait.
	ErrIncidentStalled = incidentlog.ErrStalled
	// ErrIncidentsFull is a [TimeoutError]'s Incident when its row was
	// dropped because the incident log is at its cap ([IncidentCap]).
	ErrIncidentsFull = incidentlog.ErrFull
)

// TimeoutError is returned by [Acquire] and [Update] when a waiting policy's
// deadline passed with the lock held by another handle (design:
// Acquisition Policies; the design's LockAcquireTimeoutError). Its code is
// [policy.CodeTimeout] ("lock_acquire_timeout"); it matches [ErrTimeout].
type TimeoutError struct {
	// Lock is the lock file's name ("<file>.lock").
	Lock string
	// Policy is the waiter's policy.
	Policy policy.Policy
	// Waited is how long the waiter tried, on the monotonic clock.
	Waited time.Duration
	// Holder is the holder's record as read at the timeout.
	Holder Record
	// HolderErr is why Holder could not be read (wrapping [ErrNoRecord]
	// or the read's error), nil when it was.
	HolderErr error
	// Incident is nil when the timeout's row was appended to the incident
	// log, else why not: the append's error, [ErrIncidentsFull] or
	// [ErrIncidentStalled]. It never changes the timeout.
	Incident error
}

// Error names the lock, its holder as recorded, the wait and the policy.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("lock %s: %s; waited %s under the %s policy", e.Lock, holderText(e.Holder, e.HolderErr), e.Waited.Round(time.Millisecond), e.Policy)
}

// ErrorCode returns [policy.CodeTimeout].
func (e *TimeoutError) ErrorCode() policy.Code { return policy.CodeTimeout }

// Is reports whether target is [ErrTimeout].
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// HeldError is returned at once by a [policy.SingleFlight] acquisition that
// finds the lock held: no wait, no incident (design: Acquisition Policies).
// Its code is [policy.CodeHeld]; it matches [ErrHeld].
type HeldError struct {
	// Lock is the lock file's name.
	Lock string
	// Holder is the holder's record as read.
	Holder Record
	// HolderErr is why Holder could not be read, nil when it was.
	HolderErr error
}

// Error names the lock and its holder as recorded.
func (e *HeldError) Error() string {
	return fmt.Sprintf("lock %s: %s; single_flight does not wait", e.Lock, holderText(e.Holder, e.HolderErr))
}

// ErrorCode returns [policy.CodeHeld].
func (e *HeldError) ErrorCode() policy.Code { return policy.CodeHeld }

// Is reports whether target is [ErrHeld].
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// UnsupportedError is returned when the kernel lock cannot be relied on
// where the lock file is: the volume has no kernel lock (Err matches
// errors.ErrUnsupported or ENOLCK), or, with NotExclusive, it granted the
// lock to a second handle while the first held it. The lock refuses to run
// there rather than pretend. Its code is [policy.CodeUnsupported] or
// [policy.CodeNotExclusive]; it matches [ErrUnsupported] and unwraps to
// Err.
type UnsupportedError struct {
	// Lock is the lock file's name.
	Lock string
	// NotExclusive is true when the volume granted the lock to a second
	// handle; false when it has no kernel lock.
	NotExclusive bool
	// Err is TryLock's error (nil with NotExclusive).
	Err error
}

// Error names the lock and what the volume lacks.
func (e *UnsupportedError) Error() string {
	if e.NotExclusive {
		return fmt.Sprintf("lock %s: the volume granted the kernel lock to a second handle while a first held it; it excludes nothing here", e.Lock)
	}
	return fmt.Sprintf("lock %s: the volume has no kernel lock: %v", e.Lock, e.Err)
}

// ErrorCode returns [policy.CodeNotExclusive] or [policy.CodeUnsupported].
func (e *UnsupportedError) ErrorCode() policy.Code {
	if e.NotExclusive {
		return policy.CodeNotExclusive
	}
	return policy.CodeUnsupported
}

// Is reports whether target is [ErrUnsupported].
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// Unwrap returns Err.
func (e *UnsupportedError) Unwrap() error { return e.Err }

// holderText says who holds the lock, by its record.
func holderText(r Record, err error) string {
	if err != nil {
		return fmt.Sprintf("held by a holder whose record cannot be read (%v)", err)
	}
	s := fmt.Sprintf("held by pid %d on host %q", r.PID, r.Hostname)
	if r.Agent != "" {
		s += fmt.Sprintf(", agent %q", r.Agent)
	}
	if r.Operation != "" {
		s += fmt.Sprintf(", operation %q", r.Operation)
	}
	s += fmt.Sprintf(", since %s", r.AcquiredAt)
	if r.ReleasedAt != "" {
		s += fmt.Sprintf(" (its record says released at %s: the handle holding the kernel lock has not written its record yet, or wrote none)", r.ReleasedAt)
	}
	return s
}
