//go:build !unix

package conformance

import (
	"os"
	"testing"
	"time"
)

// killSelf ends this process at once (TerminateProcess on Windows) and
// never returns.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
	for {
		time.Sleep(time.Hour)
	}
}

// killed reports whether a child was ended without exiting by itself: it
// did not succeed (a killed process has no exit status of its own here).
func killed(ps *os.ProcessState) bool { return !ps.Success() }

// stop skips the case: there is no SIGSTOP on this system.
func (c *child) stop(t *testing.T) { t.Skip("no SIGSTOP on this system") }

// cont does nothing: stop skipped the case.
func (c *child) cont(*testing.T) {}
