//go:build unix

// Package unixdir holds the two small system-call helpers that osfs's
// subsystems (the watch and the wait queue) share.
package unixdir

import (
	"os"
	"syscall"
)

// IsDir reports whether the open file d is a directory; it closes d and
// returns ENOTDIR (or Stat's error) when it is not.
func IsDir(d *os.File) error {
	fi, err := d.Stat()
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		d.Close()
		return err
	}
	return nil
}
