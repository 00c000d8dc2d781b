package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// wrappers are every FS of this module that wraps another, over osfs.
var wrappers = []struct {
	name string
	wrap func(vfs.FS) vfs.FS
	root bool // forwards OpenRoot
}{
	{"nolinkfs", func(f vfs.FS) vfs.FS { return nolinkfs.New(f, syscall.EPERM) }, true},
	{"faultfs", func(f vfs.FS) vfs.FS { return faultfs.New(f) }, true},
	{"fusemodel", func(f vfs.FS) vfs.FS { return fusemodel.New(f) }, false},
	{"pinned", func(f vfs.FS) vfs.FS { p, _ := vfs.PinDir(f, "d"); return p }, false},
	{"pinned faultfs", func(f vfs.FS) vfs.FS { p, _ := vfs.PinDir(faultfs.New(f), "d"); return p }, false},
}

// Each wrapper forwards OpenRoot where it can keep its own behaviour in
// the root it returns.
func TestWrappersForwardRoot(t *testing.T) {
	for _, w := range wrappers {
		t.Run(w.name, func(t *testing.T) {
			o, _ := osWithLock(t)
			fsys := w.wrap(o)
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
