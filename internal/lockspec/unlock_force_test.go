package lockspec_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// TestForceUnlockChecksTheKindOfFile: unlock --force removes only the lock
// it printed. A symbolic link was printed; if an empty regular file (a
// no-links holder between its open wx and its write) is under the name by
// the confirm, the bytes (none either way) are not enough: nothing is
// removed and the unlock reports the lock changed.
func TestForceUnlockChecksTheKindOfFile(t *testing.T) {
	e := newEstate(t, classes[1])
	m := locktest.NewMachine("host-a")
	o := fast(m.Spawn())
	if err := os.Symlink("elsewhere", e.path(lockP)); err != nil {
		t.Skip(err)
	}
	judged, err := lockspec.Inspect(e.fsys, target, o)
	if err != nil || judged.Mode&os.ModeSymlink == 0 {
		t.Fatalf("Inspect = %+v, %v; want a symbolic link", judged, err)
	}
	os.Remove(e.path(lockP))
	e.writeRaw(t, lockP, nil)
	err = lockspec.Unlock(context.Background(), e.fsys, target, judged, true, o)
	if !errors.Is(err, lockspec.ErrLockChanged) {
		t.Errorf("Unlock --force of a printed symlink now an empty file = %v; want ErrLockChanged", err)
	}
	if fi, err := os.Lstat(e.path(lockP)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the empty lock under the name: %v, %v; want it left", fi, err)
	}
}
