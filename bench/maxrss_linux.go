package main

import (
	"os"
	"syscall"
)

// peakRSS is a finished child's peak resident memory in bytes: rusage's
// ru_maxrss, which Linux gives in KiB. It returns 0 when there is none.
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
