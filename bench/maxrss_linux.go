package main

import (
	"os"
	"strconv"
	"strings"
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

// selfPeakRSS is the peak resident memory of this process's own address
// space so far, in bytes: VmHWM of /proc/self/status (getrusage would
// report the harness's peak, which exec carries over). It returns 0 when it
// cannot tell.
func selfPeakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kib * 1024
		}
	}
	return 0
}
