//go:build !unix

package board

import "time"

// cpuTime is 0 where getrusage is missing: the CPU metric of the
// benchmarks is then 0.
func cpuTime() time.Duration { return 0 }
