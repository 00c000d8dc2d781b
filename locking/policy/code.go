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

	// The fail-safe lock's (package locking) outcomes besides the timeout.

	// CodeLost: a hold's lock no longer carries its token (its fence
	// refused a commit, or its release found another lock); nothing was
	// committed by that write.
	CodeLost Code = "lock_lost"
	// CodeChanged: an unlock found the lock changed since it was read;
	// nothing was removed.
	CodeChanged Code = "lock_changed"
	// CodeRefused: an unlock without force met a holder not provably
	// dead; the lock is left byte for byte.
	CodeRefused Code = "lock_refused"
	// CodeBusy: an unlock without force met another breaker's live claim
	// on the lock for the whole of its wait; nothing was removed.
	CodeBusy Code = "lock_busy"
	// CodeUnreadable: the lock name holds something that is not a lock
	// (a directory that is no directory lock); nothing is moved or
	// removed.
	CodeUnreadable Code = "lock_unreadable"
	// CodeNotSynced: a write landed (its rename is done) but its folder
	// could not be synced; it must not be repeated.
	CodeNotSynced Code = "lock_not_synced"
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
