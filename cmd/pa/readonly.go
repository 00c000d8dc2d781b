package main

import (
	"errors"
	"syscall"
)

// tryAgain ends a line of a write that failed with nothing written and the
// lock free: "the lock is free now, try again", unless the volume refused
// the write for being mounted read-only (EROFS), where trying again cannot
// help until it is remounted read-write.
func tryAgain(err error) string {
	if errors.Is(err, syscall.EROFS) {
		return "the volume is mounted read-only: nothing can be recorded until it is remounted read-write"
	}
	return "the lock is free now, try again"
}
