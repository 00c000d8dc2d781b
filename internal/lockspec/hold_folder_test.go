package lockspec_test

import (
	"context"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// TestHoldStaysInItsFolder: the doc's "The folder of a hold": if the lock's
// folder is renamed during a hold, the hold's calls stay in the folder it
// opened. The commit lands in the renamed folder, the release moves and
// removes the lock there, and nothing is created under the old name.
func TestHoldStaysInItsFolder(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(e.path("d"), e.path("moved")); err != nil {
			t.Fatal(err)
		}
		if err := h.Commit([]byte(`["a"]`)); err != nil {
			t.Fatalf("Commit after the folder was renamed: %v; want it in the folder the hold opened", err)
		}
		if err := h.Release(); err != nil {
			t.Fatalf("Release after the folder was renamed: %v", err)
		}
		if got, err := os.ReadFile(e.path("moved/log.json")); err != nil || string(got) != `["a"]` {
			t.Errorf("moved/log.json = %q, %v; want the commit there", got, err)
		}
		ents, err := os.ReadDir(e.path("moved"))
		if err != nil || len(ents) != 1 {
			t.Errorf("the renamed folder holds %v, %v; want only log.json", ents, err)
		}
		if e.exists("d") {
			t.Errorf("a folder d exists again: a call of the hold walked the old path")
		}
	})
}
