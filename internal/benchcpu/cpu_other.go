//go:build !unix

package benchcpu

import "time"

// processCPU is 0 where getrusage is not there.
func processCPU() time.Duration { return 0 }
