//go:build windows

package probe

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// windowsErrors are the Windows errors the probe's operations return.
var windowsErrors = map[syscall.Errno]string{
	windows.ERROR_FILE_NOT_FOUND:      "ERROR_FILE_NOT_FOUND",
	windows.ERROR_PATH_NOT_FOUND:      "ERROR_PATH_NOT_FOUND",
	windows.ERROR_ACCESS_DENIED:       "ERROR_ACCESS_DENIED",
	windows.ERROR_INVALID_HANDLE:      "ERROR_INVALID_HANDLE",
	windows.ERROR_NOT_SAME_DEVICE:     "ERROR_NOT_SAME_DEVICE",
	windows.ERROR_SHARING_VIOLATION:   "ERROR_SHARING_VIOLATION",
	windows.ERROR_LOCK_VIOLATION:      "ERROR_LOCK_VIOLATION",
	windows.ERROR_NOT_SUPPORTED:       "ERROR_NOT_SUPPORTED",
	windows.ERROR_FILE_EXISTS:         "ERROR_FILE_EXISTS",
	windows.ERROR_INVALID_PARAMETER:   "ERROR_INVALID_PARAMETER",
	windows.ERROR_INVALID_FUNCTION:    "ERROR_INVALID_FUNCTION",
	windows.ERROR_DIR_NOT_EMPTY:       "ERROR_DIR_NOT_EMPTY",
	windows.ERROR_ALREADY_EXISTS:      "ERROR_ALREADY_EXISTS",
	windows.ERROR_DIRECTORY:           "ERROR_DIRECTORY",
	windows.ERROR_NOT_A_REPARSE_POINT: "ERROR_NOT_A_REPARSE_POINT",
}

func errnoName(e syscall.Errno) string {
	if n, ok := windowsErrors[e]; ok {
		return n
	}
	// Go's invented errnos (EWOULDBLOCK, ENOTSUP, ...) for portable code.
	switch e {
	case syscall.EWOULDBLOCK:
		return "EWOULDBLOCK"
	case syscall.ENOTSUP:
		return "ENOTSUP"
	case syscall.EPERM:
		return "EPERM"
	case syscall.EOPNOTSUPP:
		return "EOPNOTSUPP"
	}
	return ""
}
