package nolinkfs_test

import (
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/internal/hpview"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

func TestMain(m *testing.M) { hpview.Main(m) }

// TestHackpadFSTest runs hackpadfs's own fstest suite on nolinkfs over
// osfs. The suite has no link to refuse (hackpadfs has no hard links), so
// what it checks is that nolinkfs changes nothing else of the FS it wraps:
// the facets skipped are osfs's (hpview.OverOSRoot).
func TestHackpadFSTest(t *testing.T) {
	hpview.Run(t, "nolinkfs", func(tb testing.TB, dir string) vfs.FS {
		o, err := osfs.New(dir)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { o.Close() })
		return nolinkfs.New(o, syscall.ENOTSUP)
	}, hpview.OverOSRoot)
}
