package vfs

import (
	"errors"
	"io/fs"
)

// Locker is a [File] that can take an advisory kernel lock (flock on Unix).
// The spawn-log lock holds one on each file it makes where it excludes a
// second open of the file (the proof of a holder's life); the file-system
// probe reports whether a volume has it and whether it excludes.
type Locker interface {
	File
	// TryLock takes an exclusive lock without waiting; it fails with an
	// error matching errors.ErrUnsupported when the volume has no such lock,
	// and with one wrapping EWOULDBLOCK when another handle holds it.
	TryLock() error
	// Unlock releases the lock taken by TryLock.
	Unlock() error
}

// TryLock takes an exclusive advisory lock on f through its [Locker], or
// returns a *fs.PathError wrapping errors.ErrUnsupported.
func TryLock(f File, name string) error {
	if l, ok := f.(Locker); ok {
		return l.TryLock()
	}
	return &fs.PathError{Op: "flock", Path: name, Err: errors.ErrUnsupported}
}
