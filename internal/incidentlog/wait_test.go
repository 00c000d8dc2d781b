package incidentlog

import (
	"errors"
	"testing"
	"time"
)

// TestWithinStalled: an append that does not end leaves Within after its
// bound, with ErrStalled.
func TestWithinStalled(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	err := Within(20*time.Millisecond, func() error { <-release; return nil })
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("Within = %v, want ErrStalled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Within took %s", d)
	}
}

// TestWithinError: the append's error is Within's.
func TestWithinError(t *testing.T) {
	boom := errors.New("boom")
	if err := Within(time.Minute, func() error { return boom }); err != boom {
		t.Fatalf("Within = %v, want boom", err)
	}
}
