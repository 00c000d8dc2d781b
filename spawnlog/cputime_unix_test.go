//go:build unix

package spawnlog

import (
	"syscall"
	"time"
)

// cpuTime is this process's user and system CPU time: on a machine shared
// with other work, a steadier figure than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
