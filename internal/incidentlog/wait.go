package incidentlog

import (
	"errors"
	"time"
)

// ErrStalled is [Within]'s error when the append did not end within its
// bound; it goes on, unwaited, on its own goroutine.
var ErrStalled = errors.New("incident append still running")

// Within runs appendRow on a goroutine of its own and returns its error,
// or ErrStalled once d (a time.Duration on the monotonic clock) has
// passed without it: a stalled append never delays the caller more than
// d.
func Within(d time.Duration, appendRow func() error) error {
	done := make(chan error, 1)
	go func() { done <- appendRow() }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return ErrStalled
	}
}
