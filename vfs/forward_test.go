package vfs_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/faultfs"
	"github.com/pa-toolkit/pa/vfs/fusefs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// wrappers are every FS of this module that wraps another, over osfs.
var wrappers = []struct {
	name string
	wrap func(vfs.FS) vfs.FS
	root bool // forwards OpenRoot
}{
	{"nolinkfs", func(f vfs.FS) vfs.FS { return nolinkfs.New(f, syscall.EPERM) }, true},
	{"faultfs", func(f vfs.FS) vfs.FS { return faultfs.New(f) }, true},
	{"fusefs", func(f vfs.FS) vfs.FS { return fusefs.New(f) }, false},
	{"pinned", func(f vfs.FS) vfs.FS { p, _ := vfs.PinDir(f, "d"); return p }, false},
	{"pinned faultfs", func(f vfs.FS) vfs.FS { p, _ := vfs.PinDir(faultfs.New(f), "d"); return p }, false},
}

// osWithLock is an osfs whose folder d holds the file l.
func osWithLock(t *testing.T) (*osfs.FS, string) {
	t.Helper()
	o, dir := newOS(t)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", "l"), []byte("l"), 0o644)
	os.WriteFile(filepath.Join(dir, "d", "other"), nil, 0o644)
	return o, dir
}

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

// Each wrapper forwards the listing by prefix (or lists and filters, as
// the helper does), and OpenRoot where it can keep its own behaviour in
// the root it returns.
func TestWrappersForwardListingAndRoot(t *testing.T) {
	for _, w := range wrappers {
		t.Run(w.name, func(t *testing.T) {
			o, _ := osWithLock(t)
			fsys := w.wrap(o)
			if _, ok := fsys.(vfs.PrefixDirFS); !ok {
				t.Errorf("%s is no PrefixDirFS", w.name)
			}
			ents, err := vfs.ReadDirPrefix(fsys, "d", []string{"l"})
			if err != nil || len(ents) != 1 || ents[0].Name() != "l" {
				t.Errorf("ReadDirPrefix through %s = %v, %v; want l alone", w.name, ents, err)
			}
			root, err := vfs.OpenRoot(fsys, "d")
			if !w.root {
				if err == nil {
					root.Close()
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenRoot through %s: %v", w.name, err)
			}
			defer root.Close()
			if _, err := fs.Stat(ioFS{root}, "l"); err != nil {
				t.Errorf("Stat(l) in the root: %v", err)
			}
			if _, ok := root.(vfs.WatchFS); !ok {
				t.Errorf("the root of %s is no WatchFS", w.name)
			}
			if w.name == "nolinkfs" {
				if err := root.Link("l", "l2"); !errors.Is(err, syscall.EPERM) {
					t.Errorf("Link in a root of nolinkfs = %v, want EPERM", err)
				}
			}
		})
	}
}

// ioFS is a vfs.FS as an fs.FS, enough for fs.Stat.
type ioFS struct{ vfs.FS }

func (f ioFS) Open(name string) (fs.File, error) { return f.FS.OpenFile(name, os.O_RDONLY, 0) }

// Each wrapper forwards the wait queue of the FS it wraps: the first place
// is the head, the second is not while the first is there.
func TestWrappersForwardQueue(t *testing.T) {
	for _, w := range wrappers {
		t.Run(w.name, func(t *testing.T) {
			o, _ := osWithLock(t)
			if p, err := o.JoinQueue("d/l"); errors.Is(err, errors.ErrUnsupported) {
				t.Skip("no queue on this system")
			} else if err == nil {
				p.Close()
			}
			fsys := w.wrap(o)
			first, err := vfs.JoinQueue(fsys, "d/l")
			if err != nil {
				t.Fatalf("JoinQueue through %s: %v", w.name, err)
			}
			defer first.Close()
			second, err := vfs.JoinQueue(fsys, "d/l")
			if err != nil {
				t.Fatalf("JoinQueue through %s: %v", w.name, err)
			}
			defer second.Close()
			if head, err := first.Wait(context.Background(), 0); !head || err != nil {
				t.Fatalf("first place through %s: Wait = %v, %v; want the head", w.name, head, err)
			}
			if head, err := second.Wait(context.Background(), 0); head || err != nil {
				t.Fatalf("second place through %s: Wait = %v, %v; want not the head", w.name, head, err)
			}
		})
	}
}
