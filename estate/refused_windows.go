package estate

import (
	"errors"

	"golang.org/x/sys/windows"
)

// invalidNameErrno reports Windows' ERROR_INVALID_NAME: a name with a
// character the volume holds in no file name.
func invalidNameErrno(err error) bool { return errors.Is(err, windows.ERROR_INVALID_NAME) }
