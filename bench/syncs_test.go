package main

import (
	"context"
	"testing"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestSyncVariantsDropTheirSyncs runs one update of each sync variant over
// a faultfs that counts the syncs reaching the disk: each variant drops
// the syncs it names and keeps every other, and publishes by the class it
// names.
func TestSyncVariantsDropTheirSyncs(t *testing.T) {
	// kept is how many syncs of each kind one update makes with none
	// dropped, by class.
	kept := map[string]map[string]int{
		"links":   {pendingSyncs: 1, tempSyncs: 1, folderSyncs: 1},
		"nolinks": {pendingSyncs: 1, tempSyncs: 1, folderSyncs: 2},
	}
	for _, v := range syncVariants {
		t.Run(v.Key, func(t *testing.T) {
			root, err := osfs.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			var inner vfs.FS = root
			if v.linksClass() == "nolinks" {
				inner = nolinkfs.New(root, 0)
			}
			under := faultfs.New(inner)
			fsys := v.wrap(under)
			fn := func([]byte, bool) ([]byte, error) { return []byte(`{"records":[]}`), nil }
			if err := locking.Update(context.Background(), fsys, dataName, fn, locking.Options{}); err != nil {
				t.Fatal(err)
			}
			for kind, n := range kept[v.linksClass()] {
				want := n
				if v.All || v.Drop == kind {
					want = 0
				}
				if got := under.Calls(faultfs.OpSync, kind); got != want {
					t.Errorf("syncs of %q that reached the disk: %d, want %d", kind, got, want)
				}
			}
			h, err := locking.Acquire(context.Background(), fsys, dataName, locking.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := h.HardLinks(), v.linksClass() == "links"; got != want {
				t.Errorf("HardLinks() = %v, want %v", got, want)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
