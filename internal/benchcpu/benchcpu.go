// Package benchcpu runs a benchmark's loop and reports the CPU time it
// took per operation beside the wall time: on a machine shared with other
// work, a steadier figure.
package benchcpu

import (
	"runtime"
	"testing"
)

// Loop runs op in b.Loop, after a garbage collection (the setup's garbage
// is not charged to op), and reports the process's user and system CPU
// time per call as the metric "cpu-ns/op" (nanoseconds). Where the system
// gives no CPU time (see processCPU), the metric reads 0.
func Loop(b *testing.B, op func()) {
	b.Helper()
	runtime.GC()
	cpu0 := processCPU()
	for b.Loop() {
		op()
	}
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}
