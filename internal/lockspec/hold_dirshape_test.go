package lockspec_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The fence of a hold published as a directory passes only on that
// directory: its very bytes as a file at the lock name, or under a marker
// not named after its token, are another lock. Kills "fence ignores the
// shape".
func TestFenceChecksTheDirectoryShape(t *testing.T) {
	e := dirEstate(t)
	m := locktest.NewMachine("host-a")
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	marker := lockP + "/" + h.Token() + ".json"
	rec := e.readRaw(t, marker)
	if err := h.Fence(); err != nil {
		t.Fatalf("Fence on its own directory: %v", err)
	}
	other := lockP + "/ffffffffffffffffffffffff.json"
	if err := os.Rename(e.path(marker), e.path(other)); err != nil {
		t.Fatal(err)
	}
	if err := h.Fence(); !errors.Is(err, lockspec.ErrLockLost) {
		t.Errorf("Fence with its record under another marker = %v, want ErrLockLost", err)
	}
	if err := os.Remove(e.path(other)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(e.path(lockP)); err != nil {
		t.Fatal(err)
	}
	e.writeRaw(t, lockP, rec)
	if err := h.Fence(); !errors.Is(err, lockspec.ErrLockLost) {
		t.Errorf("Fence with its record as a file lock = %v, want ErrLockLost", err)
	}
}
