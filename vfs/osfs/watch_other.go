//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package osfs

import (
	"errors"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// watchDir has no watch to offer on this system: the waiter polls.
func watchDir(d *os.File, base string) (vfs.Watch, error) {
	d.Close()
	return nil, errors.ErrUnsupported
}
