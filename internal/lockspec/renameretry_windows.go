//go:build windows

package lockspec

import (
	"errors"

	"golang.org/x/sys/windows"
)

// transientRenameError reports the errors of a rename that an antivirus
// scan or a directory pending deletion gives for a moment: access denied
// (EPERM, EACCES), a sharing or a lock violation (EBUSY).
func transientRenameError(err error) bool {
	var errno windows.Errno
	if !errors.As(err, &errno) {
		return false
	}
	switch errno {
	case windows.ERROR_ACCESS_DENIED, windows.ERROR_SHARING_VIOLATION, windows.ERROR_LOCK_VIOLATION:
		return true
	}
	return false
}
