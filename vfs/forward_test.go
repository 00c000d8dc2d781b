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
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
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

// keyedFS is an FS whose files say key from their handle (a
// [vfs.FileKeyer], as osfs's are on Windows), and whose roots do too; with
// noStatKey its stat data carries no key, as on Windows.
type keyedFS struct {
	vfs.FS
	key       vfs.FileKey
	noStatKey bool
}

func (k keyedFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := k.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return keyedFile{File: f, key: k.key}, nil
}

func (k keyedFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := k.FS.Stat(name)
	if err != nil || !k.noStatKey {
		return fi, err
	}
	return sysInfo{fi, nil}, nil
}

func (k keyedFS) OpenRoot(dir string) (vfs.RootFS, error) {
	r, err := vfs.OpenRoot(k.FS, dir)
	if err != nil {
		return nil, err
	}
	return keyedRoot{keyedFS{FS: r, key: k.key, noStatKey: k.noStatKey}, r}, nil
}

type keyedRoot struct {
	keyedFS
	root vfs.RootFS
}

func (r keyedRoot) Close() error { return r.root.Close() }

// Each wrapper's files forward the key their wrapped file says from its
// handle ([vfs.FileKeyer]), as they forward its kernel lock: through every
// one of them KeyOfFile is the handle's key, not the stat data's, and
// KeyOfName asks a handle where the stat data carries none.
func TestWrappersForwardFileKey(t *testing.T) {
	handle := vfs.FileKey{Dev: 0xfeed, Ino: 0xbeef}
	for _, w := range wrappers {
		t.Run(w.name, func(t *testing.T) {
			o, _ := osWithLock(t)
			fsys := w.wrap(keyedFS{FS: o, key: handle})
			f, err := fsys.OpenFile("d/l", os.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, ok := f.(vfs.FileKeyer); !ok {
				t.Fatalf("a file of %s (%T) is no FileKeyer", w.name, f)
			}
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			if key, ok := vfs.KeyOfFile(f, fi); !ok || key != handle {
				t.Errorf("KeyOfFile through %s = %+v, %v; want the handle's %+v", w.name, key, ok, handle)
			}
			bare := w.wrap(keyedFS{FS: o, key: handle, noStatKey: true})
			if key, ok, err := vfs.KeyOfName(bare, "d/l"); err != nil || !ok || key != handle {
				t.Errorf("KeyOfName through %s, no key in the stat data = %+v, %v, %v; want the handle's %+v", w.name, key, ok, err, handle)
			}
		})
	}
}
