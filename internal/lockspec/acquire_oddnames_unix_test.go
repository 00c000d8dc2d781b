//go:build unix

package lockspec_test

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// A dangling symlink at the lock name: link() and open(O_EXCL) say EEXIST,
// open(O_RDONLY) says ENOENT, and acquire `continue`s without looking at
// its deadline or ctx: a busy loop forever. Likewise a FIFO at the lock
// name blocks readLock's open forever.
func TestOddLockNamesHonourTheTimeout(t *testing.T) {
	for _, kind := range []string{"dangling symlink", "fifo"} {
		t.Run(kind, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				var err error
				if kind == "fifo" {
					err = syscall.Mkfifo(e.path(lockP), 0o644)
				} else {
					err = os.Symlink("nothing", e.path(lockP))
				}
				if err != nil {
					t.Fatal(err)
				}
				// With Lstat, and through an FS that has only the core
				// interface (it cannot tell a dangling symlink from a
				// lock released meanwhile).
				for _, fsys := range []vfs.FS{e.fsys, coreOnly{e.fsys}} {
					opts := fast(nil)
					opts.Timeout = 100 * time.Millisecond
					ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
					done := make(chan error, 1)
					go func() { done <- lockspec.Update(ctx, fsys, target, appendRecord("a"), opts) }()
					select {
					case err := <-done:
						var te *lockspec.TimeoutError
						if !errors.As(err, &te) || te.Holder.State != lockspec.StateUnreadable {
							t.Fatalf("Update over a %s: %v, want a timeout naming an unreadable lock", kind, err)
						}
					case <-time.After(3 * time.Second):
						t.Fatalf("Update with a 100ms timeout and a 500ms ctx still running after 3s (%s at the lock name)", kind)
					}
					cancel()
				}
			})
		})
	}
}

// coreOnly hides every optional interface of the FS it holds.
type coreOnly struct{ vfs.FS }
