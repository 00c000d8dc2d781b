package lockspec

import "github.com/pa-toolkit/pa/locking/policy"

// codedError is a sentinel error with a stable code (policy.Coder):
// errors.Is matches the value itself, policy.CodeOf finds its code through
// any wrapping.
type codedError struct {
	msg  string
	code policy.Code
}

func (e *codedError) Error() string { return e.msg }

// ErrorCode returns the sentinel's code.
func (e *codedError) ErrorCode() policy.Code { return e.code }

// ErrorCode returns [policy.CodeTimeout] ("lock_acquire_timeout", the
// kernel-lock design's name for a timeout).
func (e *TimeoutError) ErrorCode() policy.Code { return policy.CodeTimeout }

// ErrorCode returns [policy.CodeRefused] ("lock_refused").
func (e *RefusedError) ErrorCode() policy.Code { return policy.CodeRefused }

// ErrorCode returns [policy.CodeBusy] ("lock_busy").
func (e *BusyError) ErrorCode() policy.Code { return policy.CodeBusy }

// ErrorCode returns [policy.CodeNotSynced] ("lock_not_synced"). A caller
// that asks [policy.CodeOf] gets this code, not the sync error's.
func (e *NotSyncedError) ErrorCode() policy.Code { return policy.CodeNotSynced }
