//go:build !unix && !windows

package probe

import "syscall"

func errnoName(e syscall.Errno) string { return "" }
