package kernel

import (
	"fmt"

	"github.com/pa-toolkit/pa/locking/policy"
)

// LabelError is returned by [Acquire] and [Update], before any file is
// touched, when [Options] Agent or Operation is not a short public-safe
// label: Field is "agent" or "operation". Its code is
// [policy.CodeInvalidLabel].
type LabelError struct {
	// Lock is the lock file's name.
	Lock string
	// Field is "agent" or "operation".
	Field string
}

// Error names the lock, the label and what a label may hold.
func (e *LabelError) Error() string {
	return fmt.Sprintf("lock %s: the %s label must be at most %d letters, digits, spaces or ._:@+- (never a path, variable or command line)", e.Lock, e.Field, policy.MaxLabel)
}

// ErrorCode returns [policy.CodeInvalidLabel].
func (e *LabelError) ErrorCode() policy.Code { return policy.CodeInvalidLabel }
