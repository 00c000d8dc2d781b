package main

import "golang.org/x/sys/unix"

// terminalFD reports whether fd is a terminal: whether it has termios
// settings (TCGETS), as isatty(3) asks.
func terminalFD(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
