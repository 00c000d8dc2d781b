package vfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// Each wrapper forwards the wake-up of the FS it wraps: a watch armed
// through it wakes when the name is renamed away.
func TestWrappersForwardWatch(t *testing.T) {
	for _, w := range wrappers {
		t.Run(w.name, func(t *testing.T) {
			o, dir := osWithLock(t)
			if _, err := o.WatchRemoval("d/l"); errors.Is(err, errors.ErrUnsupported) {
				t.Skip("no watch on this system")
			}
			fsys := w.wrap(o)
			watch, err := vfs.WatchRemoval(fsys, "d/l")
			if err != nil {
				t.Fatalf("WatchRemoval through %s: %v", w.name, err)
			}
			defer watch.Close()
			os.Rename(filepath.Join(dir, "d", "l"), filepath.Join(dir, "d", "gone"))
			woken, err := watch.Wait(context.Background(), 10*time.Second)
			if !woken || err != nil {
				t.Fatalf("Wait through %s = %v, %v; want woken", w.name, woken, err)
			}
		})
	}
}
