package vfs_test

import (
	"io/fs"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

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
