package main

import (
	"errors"

	"golang.org/x/sys/windows"
)

// writeProtected reports Windows' refusal to write on write-protected
// media, its read-only volume.
func writeProtected(err error) bool { return errors.Is(err, windows.ERROR_WRITE_PROTECT) }
