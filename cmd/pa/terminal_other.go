//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd && !windows

package main

// terminalFD is false where pa does not ask the system: no line that only
// a terminal gets is printed there.
func terminalFD(fd uintptr) bool { return false }
