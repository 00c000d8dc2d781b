//go:build unix

package benchcpu

import (
	"syscall"
	"time"
)

// processCPU is this process's user and system CPU time (getrusage), 0 when
// it cannot be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
