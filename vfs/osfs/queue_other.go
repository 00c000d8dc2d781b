//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package osfs

import (
	"errors"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// joinQueue: no flock(2) here; d is closed.
func joinQueue(d *os.File) (vfs.Place, error) {
	d.Close()
	return nil, errors.ErrUnsupported
}
