package crashfs_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// A file written and synced, whose folder is not synced: a cut after the
// file's sync may lose the name, content and all.
func Example() {
	fsys := crashfs.New(crashfs.Options{})
	_ = vfs.WriteFileExclusive(fsys, "log", []byte("one"), 0o644, true) // create, write, fsync
	cut, _ := fsys.CutAt(fsys.Ops())
	for _, st := range cut.States(rand.New(rand.NewPCG(1, 2)), 10) {
		_, _, err := vfs.ReadFile(st.FS(), "log", 1<<20)
		fmt.Println(err == nil)
	}
	_ = vfs.SyncDir(fsys, ".")
	cut, _ = fsys.CutAt(fsys.Ops())
	fmt.Println(len(cut.States(nil, 0)), "state after the folder's sync")
	// Output:
	// false
	// true
	// 1 state after the folder's sync
}
