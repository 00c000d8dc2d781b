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

// selfPeakRSS is this process's peak resident memory so far in bytes
// (getrusage(RUSAGE_SELF)), 0 when it cannot tell.
func selfPeakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss
}
