package main

import "golang.org/x/sys/windows"

// terminalFD reports whether the handle fd is a console: whether it has a
// console mode.
func terminalFD(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}
