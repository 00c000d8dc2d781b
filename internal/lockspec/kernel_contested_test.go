//go:build unix

package lockspec_test

import (
	"context"
	"os"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// A sweep to which this writer's pid is gone (another pid namespace's)
// takes the kernel lock of the writer's new name, a pending file or a
// staging directory's marker, before the writer does, and keeps it past
// kernelLockPatience while it moves the name out. The writer drops that
// name and makes another, and its acquire succeeds; had it gone on without
// a kernel lock, its link() or its sync of the staging directory would
// have found the name gone and failed the acquire (R50 on exFAT, now and
// then). The sweep is this test: a kernel lock taken right after the
// writer's create, the name removed and the lock let go at the writer's
// next step on it.
func TestNameContestedPastPatienceIsMadeAgain(t *testing.T) {
	for _, c := range []struct {
		class fsClass
		kind  string // the name contested: ".pending-" or the marker in ".staged-"
	}{{classes[0], ".pending-"}, {dirClass, ".staged-"}} {
		t.Run(c.class.name, func(t *testing.T) {
			e := newEstate(t, c.class)
			ffs := faultfs.New(e.fsys)
			var mu sync.Mutex
			first, removed := "", false
			var held vfs.File
			ffs.After(func(ev faultfs.Event) error {
				mu.Lock()
				defer mu.Unlock()
				if ev.Err != nil || first != "" || ev.Op != faultfs.OpOpenFile || ev.Flag&os.O_EXCL == 0 || !strings.Contains(ev.Name, c.kind) {
					return nil
				}
				if c.kind == ".staged-" && path.Base(path.Dir(ev.Name)) == path.Base(ev.Name) {
					return nil
				}
				// The sweep's handle and kernel lock, right after the create.
				f, err := e.fsys.OpenFile(ev.Name, vfs.ReadFlags, 0)
				if err != nil {
					t.Errorf("the sweep's open of %s: %v", ev.Name, err)
					return nil
				}
				if err := vfs.TryLock(f, ev.Name); err != nil {
					t.Errorf("the sweep's kernel lock of %s: %v", ev.Name, err)
				}
				first, held = ev.Name, f
				return nil
			})
			ffs.Before(func(ev faultfs.Event) error {
				mu.Lock()
				defer mu.Unlock()
				switch ev.Op {
				case faultfs.OpWrite, faultfs.OpSync, faultfs.OpLink, faultfs.OpRename, faultfs.OpRemove:
				default:
					return nil // the writer's own second open and its lock's try among them
				}
				if first == "" || removed {
					return nil
				}
				if ev.Name != first && ev.NewName != first && ev.Name != path.Dir(first) {
					return nil
				}
				// The writer's next step on that name: the sweep has moved
				// it out and lets its lock go.
				removed = true
				_ = e.fsys.Remove(first)
				if strings.Contains(first, ".staged-") {
					_ = e.fsys.Remove(path.Dir(first))
				}
				held.Close()
				return nil
			})
			h, err := lockspec.Acquire(context.Background(), ffs, target, lockspec.Options{})
			if err != nil {
				t.Fatalf("Acquire = %v; want the contested name dropped and another made", err)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if first == "" {
				t.Fatal("no name was contested: the test's sweep never ran")
			}
			if held != nil && !removed {
				held.Close()
			}
			e.onlyTarget(t, false)
		})
	}
}

// The lock itself, made by the spec's exclusive create (no hard links),
// whose kernel lock a judge's probe keeps past kernelLockPatience, is not
// dropped: its writer goes on without a kernel lock, writes its record
// and holds the lock. Read as held instead, it would leave its empty lock
// behind, which no writer breaks: a block until the timeout.
func TestLockContestedPastPatienceGoesOnWithout(t *testing.T) {
	e := newEstate(t, classes[1])
	ffs := faultfs.New(e.fsys)
	var mu sync.Mutex
	var held vfs.File
	release := func() {
		mu.Lock()
		defer mu.Unlock()
		if held != nil {
			held.Close()
			held = nil
		}
	}
	t.Cleanup(release)
	taken := false
	ffs.After(func(ev faultfs.Event) error {
		mu.Lock()
		defer mu.Unlock()
		if ev.Err != nil || taken || ev.Op != faultfs.OpOpenFile || ev.Flag&os.O_EXCL == 0 || ev.Name != lockP {
			return nil
		}
		// The judge's probe: a handle and its kernel lock, right after
		// the lock's create.
		f, err := e.fsys.OpenFile(ev.Name, vfs.ReadFlags, 0)
		if err != nil {
			t.Errorf("the probe's open of %s: %v", ev.Name, err)
			return nil
		}
		if err := vfs.TryLock(f, ev.Name); err != nil {
			t.Errorf("the probe's kernel lock of %s: %v", ev.Name, err)
		}
		taken, held = true, f
		return nil
	})
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpWrite && ev.Name == lockP {
			release() // the probe ends at the writer's record
		}
		return nil
	})
	h, err := lockspec.Acquire(context.Background(), ffs, target, lockspec.Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("Acquire = %v; want the lock held, with no kernel lock claimed", err)
	}
	if !taken {
		t.Fatal("the probe never ran")
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	e.onlyTarget(t, false)
}
