package faultfs_test

import (
	"maps"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/internal/hpview"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func TestMain(m *testing.M) { hpview.Main(m) }

// TestHackpadFSTest runs hackpadfs's own fstest suite on faultfs over
// osfs, with no rule and no hook: it must change nothing of the FS it
// wraps. The facets skipped are osfs's (hpview.OverOSRoot), but for the
// file methods a faultfs.File does not have: the suite skips Seek's and
// Truncate's facets itself, and WriteAt's are skipped here.
func TestHackpadFSTest(t *testing.T) {
	skip := maps.Clone(hpview.OverOSRoot)
	for _, k := range []string{"file.Seek/seek_negative_offset", "file.Seek/seek_unknown_start", "file.Truncate/negative_size", "file.WriteAt/negative_offset"} {
		delete(skip, k)
	}
	skip["file.WriteAt/"] = hpview.WhyNoWriteAt
	hpview.Run(t, "faultfs", func(tb testing.TB, dir string) vfs.FS {
		o, err := osfs.New(dir)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { o.Close() })
		return faultfs.New(o)
	}, skip)
}
