package lockspec

import (
	"errors"
	"syscall"
)

// Windows' answers that processAlive reads there (alive_windows.go), as
// numbers so that the judgement below is tested on every system.
const (
	errorAccessDenied = syscall.Errno(5) // ERROR_ACCESS_DENIED
	stillActive       = 259              // STILL_ACTIVE, GetExitCodeProcess's code of a running process
)

// windowsAlive judges a pid on Windows from what OpenProcess (openErr) and
// GetExitCodeProcess (code, codeErr) answered. Only a pid that cannot be
// opened for any reason but access (no such process), or whose process has
// an exit code, is dead: access denied reads as alive, as EPERM does on
// Unix, and so does an exit code that cannot be read. A process that exits
// with code 259 reads as alive for ever: a block that unlock --force
// clears, never a break.
func windowsAlive(openErr error, code uint32, codeErr error) bool {
	if openErr != nil {
		return errors.Is(openErr, errorAccessDenied)
	}
	if codeErr != nil {
		return true
	}
	return code == stillActive
}
