package conformance

import (
	"errors"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// The windows of the stall rows (R11, R15, R16, R17), shortened through
// options: the lock timeout the other writers wait, and the stale window
// board check reports with. A paused child outlasts both before it goes
// on (the child itself keeps the shipped 10 s timeout).
const (
	stallTimeout = 100 * time.Millisecond
	stallStale   = 150 * time.Millisecond
)

// short returns options of a writer that waits the stall rows' timeout,
// for host h.
func short(h locking.Host) locking.Options {
	o := fast(h)
	o.Timeout = stallTimeout
	return o
}

// waitUntil returns once at has passed. It orders nothing (pauses at steps
// do that); it lets a window pass after the order is fixed.
func waitUntil(at time.Time) {
	if d := time.Until(at); d > 0 {
		time.Sleep(d)
	}
}

// outlastWindows returns once both windows have passed since pausedAt,
// the moment the parent heard a child pause (no earlier than the pause
// began).
func outlastWindows(pausedAt time.Time) {
	waitUntil(pausedAt.Add(max(stallTimeout, stallStale) + 20*time.Millisecond))
}

// pausedPastWindows fails unless the child's own measure of its pause at
// step exceeds the others' timeout and the stale window.
func pausedPastWindows(t *testing.T, c *child, step lockspec.Step) {
	t.Helper()
	if d := c.pauseLasted(t, step); d <= stallTimeout || d <= stallStale {
		t.Fatalf("child %s paused at %s for %v; want past the timeout (%v) and the stale window (%v)", c.name, step, d, stallTimeout, stallStale)
	}
}

// reportedPastStale is run while a writer of pid holds the lock (paused at
// a step): once the lock is older than the stale window, board check with
// that window reports it, its holder alive, and a writer with the short
// timeout times out naming it; the lock is left byte for byte.
func (s *site) reportedPastStale(t *testing.T, pid int) {
	t.Helper()
	lock := s.readRaw(t, lockName)
	h, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil || h.PID != pid || h.State != locking.StateAlive {
		t.Fatalf("Inspect = %+v, %v; want pid %d alive", h, err, pid)
	}
	since := h.FileTime // the age is from the later of the two (spec: The clock)
	if at, err := time.Parse(time.RFC3339Nano, h.AcquiredAt); err == nil && at.After(since) {
		since = at
	}
	waitUntil(since.Add(stallStale + 10*time.Millisecond))

	probs := s.lockHeld(t, dispatch.CheckOptions{StaleWindow: stallStale})
	if len(probs) != 1 || probs[0].Holder.PID != pid || probs[0].Holder.State != locking.StateAlive.String() {
		t.Fatalf("board check with a %v stale window: %+v; want the lock of pid %d reported, alive", stallStale, probs, pid)
	}
	err = s.write("timed-out", short(s.me()))
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Holder.PID != pid || te.Holder.State != locking.StateAlive || te.Holder.Age <= stallStale {
		t.Fatalf("a writer with a %v timeout: %v; want a timeout naming pid %d alive, older than the stale window", stallTimeout, err, pid)
	}
	if got := s.readRaw(t, lockName); string(got) != string(lock) {
		t.Fatal("the holder's lock changed while it was reported and waited for")
	}
}
