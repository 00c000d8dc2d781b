package vfs_test

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// The spec's rule: any link() error but ENOENT and EEXIST is "no hard
// links", EPERM included (which errors.ErrUnsupported does not match).
func TestNoHardLinks(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&os.LinkError{Op: "link", Err: syscall.EEXIST}, false},
		{&os.LinkError{Op: "link", Err: syscall.ENOENT}, false},
		{&os.LinkError{Op: "link", Err: syscall.EPERM}, true},
		{&os.LinkError{Op: "link", Err: syscall.ENOTSUP}, true},
		{&os.LinkError{Op: "link", Err: syscall.EOPNOTSUPP}, true},
		{&os.LinkError{Op: "link", Err: syscall.EXDEV}, true},
		{errors.ErrUnsupported, true},
	} {
		if got := vfs.NoHardLinks(c.err); got != c.want {
			t.Errorf("NoHardLinks(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
