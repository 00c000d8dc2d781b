//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package watch

import (
	"errors"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// Removal has no watch to offer on this system: it closes d and returns
// errors.ErrUnsupported, and the waiter polls.
func Removal(d *os.File, base string) (vfs.Watch, error) {
	d.Close()
	return nil, errors.ErrUnsupported
}
