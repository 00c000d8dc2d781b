//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is the process's peak resident memory in bytes (rusage ru_maxrss:
// kilobytes on Linux and the BSDs, bytes on macOS).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
