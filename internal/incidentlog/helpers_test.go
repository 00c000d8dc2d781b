package incidentlog

import (
	"testing"

	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// row is a test row.
type row struct {
	Kind string `json:"kind"`
	N    int64  `json:"n"`
}

func isRow(r *row) bool { return r.Kind == "k" }

// newFS is a faultfs over an osfs of a temp dir, and the dir.
func newFS(t *testing.T) (ffs *faultfs.FS, dir string) {
	dir = t.TempDir()
	if o, err := osfs.New(dir); err == nil {
		t.Cleanup(func() { _ = o.Close() })
		return faultfs.New(o), dir
	} else {
		t.Fatal(err)
	}
	return nil, dir
}
