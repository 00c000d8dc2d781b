package osfs_test

import (
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// open is an osfs rooted at dir, closed at the end of the test.
func open(t *testing.T, dir string) vfs.FS {
	t.Helper()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	return fsys
}

// TestVFS runs vfstest on the real OS, several processes included.
func TestVFS(t *testing.T) {
	vfstest.Run(t, func(t *testing.T) vfs.FS { return open(t, t.TempDir()) }, vfstest.Options{
		Open: func(dir string) (vfs.FS, error) { return osfs.New(dir) },
	})
}
