package nolinkfs_test

import (
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// TestVFS runs vfstest on nolinkfs over the OS, with each errno Link may
// be refused with: every check passes, link as a refusal, and several
// processes race through nolinkfs too.
func TestVFS(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOTSUP, syscall.EPERM, syscall.EOPNOTSUPP} {
		t.Run(errno.Error(), func(t *testing.T) {
			vfstest.Run(t, func(t *testing.T) vfs.FS {
				o, err := osfs.New(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { o.Close() })
				return nolinkfs.New(o, errno)
			}, vfstest.Options{Open: func(dir string) (vfs.FS, error) {
				o, err := osfs.New(dir)
				if err != nil {
					return nil, err
				}
				return nolinkfs.New(o, errno), nil
			}})
		})
	}
}
