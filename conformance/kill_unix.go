//go:build unix

package conformance

import (
	"os"
	"syscall"
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
