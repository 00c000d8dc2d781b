//go:build unix

package osfs

import (
	"os"
	"syscall"
)

// isDir reports whether the open file d is a directory; it closes d and
// returns ENOTDIR (or Stat's error) when it is not.
func isDir(d *os.File) error {
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
