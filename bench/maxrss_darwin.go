package main

import (
	"os"
	"syscall"
)

// peakRSS is a finished child's peak resident memory in bytes: rusage's
// ru_maxrss, which macOS gives in bytes. It returns 0 when there is none.
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
