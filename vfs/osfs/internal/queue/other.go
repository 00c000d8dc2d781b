//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package queue

import (
	"errors"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// Join has no flock(2) here: it closes d and returns
// errors.ErrUnsupported.
func Join(d *os.File) (vfs.Place, error) {
	d.Close()
	return nil, errors.ErrUnsupported
}
