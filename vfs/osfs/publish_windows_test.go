package osfs_test

import (
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// On Windows the real file system selects the spec's exclusive create
// where link() is refused: the directory publish's renames of a directory
// with its marker open are refused there.
func TestWindowsSelectsTheExclusiveCreate(t *testing.T) {
	var fsys any = (*osfs.FS)(nil)
	x, ok := fsys.(lockspec.ExclusiveCreateFS)
	if !ok || !x.ExclusiveCreatePublish() {
		t.Fatal("osfs on Windows does not select the exclusive create")
	}
}
