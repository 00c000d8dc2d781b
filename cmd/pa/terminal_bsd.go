//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// terminalFD reports whether fd is a terminal: whether it has termios
// settings (TIOCGETA), as isatty(3) asks.
func terminalFD(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}
