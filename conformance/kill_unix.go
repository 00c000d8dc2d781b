//go:build unix

package conformance

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// killSelf kills this process with SIGKILL and never returns.
func killSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	for {
		time.Sleep(time.Hour) // the signal is on its way; never go past the step
	}
}

// killed reports whether a child ended by SIGKILL.
func killed(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// stop stops the child with SIGSTOP.
func (c *child) stop(t *testing.T) { c.signal(t, syscall.SIGSTOP) }

// cont lets a stopped child go on (SIGCONT).
func (c *child) cont(t *testing.T) { c.signal(t, syscall.SIGCONT) }

// signal sends sig to the child's process.
func (c *child) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("child %s: %v: %v", c.name, sig, err)
	}
}
