package osfs_test

import (
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/internal/hpview"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

func TestMain(m *testing.M) { hpview.Main(m) }

// TestHackpadFSTest runs hackpadfs's own fstest suite on osfs.
func TestHackpadFSTest(t *testing.T) {
	hpview.Run(t, "osfs", func(tb testing.TB, dir string) vfs.FS {
		fsys, err := osfs.New(dir)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { fsys.Close() })
		return fsys
	}, hpview.OverOSRoot)
}
