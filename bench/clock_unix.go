//go:build unix

package main

import (
	"time"

	"golang.org/x/sys/unix"
)

// monoNow returns CLOCK_MONOTONIC in nanoseconds. It is one clock for every
// process of the host, so a t0 taken in one process and a t1 taken in
// another subtract to the time between them (Go's own monotonic reading is
// private to each process).
func monoNow() int64 { return clockNs(unix.CLOCK_MONOTONIC) }

// cpuNow returns this process's CPU time, user and system of all its
// threads, in nanoseconds (CLOCK_PROCESS_CPUTIME_ID: the same sum as
// getrusage(RUSAGE_SELF), at nanosecond resolution).
func cpuNow() time.Duration { return time.Duration(clockNs(unix.CLOCK_PROCESS_CPUTIME_ID)) }

func clockNs(id int32) int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		panic("clock_gettime: " + err.Error()) // both clocks exist on every supported Unix
	}
	return ts.Nano()
}
