package policy

import "errors"

// Code is a stable error code of a lock's outcome, as a JSON error's
// error_code carries it. The codes are listed once in docs/kernel-lock.md
// ("Error codes"); a code is never renamed.
type Code string

// The codes.
const (
	// CodeTimeout: a waiting policy's deadline passed with the lock held
	// (the design's LockAcquireTimeoutError, error_code
	// lock_acquire_timeout).
	CodeTimeout Code = "lock_acquire_timeout"
	// CodeHeld: a single_flight acquisition found the lock held; an
	// ordinary result, no incident.
	CodeHeld Code = "lock_held"
	// CodeUnsupported: the volume has no kernel lock.
	CodeUnsupported Code = "lock_unsupported"
	// CodeNotExclusive: the volume grants a kernel lock to two handles at
	// once, so it excludes nothing.
	CodeNotExclusive Code = "lock_not_exclusive"
	// CodeInvalidLabel: an agent or operation label given for the holder's
	// record is not a short public-safe label.
	CodeInvalidLabel Code = "lock_invalid_label"
)

// Coder is an error that has a stable code.
type Coder interface {
	error
	// ErrorCode returns the error's stable code.
	ErrorCode() Code
}

// CodeOf returns the code of the first error in err's tree that is a
// [Coder] (errors.As), and false when there is none.
func CodeOf(err error) (Code, bool) {
	var c Coder
	if errors.As(err, &c) {
		return c.ErrorCode(), true
	}
	return "", false
}
