package main

import (
	"errors"
	"syscall"
)

// readOnlyVolume ends a line of a write the volume refused for being
// mounted read-only: trying again, or clearing the lock (an unlock is a
// write too), cannot help until it is remounted read-write.
const readOnlyVolume = "the volume is mounted read-only: nothing can be recorded until it is remounted read-write"

// readOnly reports whether err is a volume's refusal to write for being
// read-only: EROFS, or Windows' ERROR_WRITE_PROTECT (writeProtected).
func readOnly(err error) bool { return errors.Is(err, syscall.EROFS) || writeProtected(err) }

// orTryAgain ends a line of a write that failed with nothing written:
// readOnlyVolume when the volume is read-only, whatever holds the lock;
// else the lock's clear command, or "the lock is free now, try again".
func (n lockNow) orTryAgain(err error) string {
	if readOnly(err) {
		return readOnlyVolume
	}
	return n.or("the lock is free now, try again")
}
