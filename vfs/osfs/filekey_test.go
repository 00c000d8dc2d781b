package osfs_test

import (
	"os"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// keyOfOpen opens name and returns its file's key (vfs.KeyOfFile: the
// stat data's on Unix, the handle's on Windows) and the handle.
func keyOfOpen(t *testing.T, fsys vfs.FS, name string, flag int) (vfs.FileKey, vfs.File) {
	t.Helper()
	f, err := fsys.OpenFile(name, flag, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	key, ok := vfs.KeyOfFile(f, fi)
	if !ok {
		t.Fatalf("KeyOfFile(%s) says no key", name)
	}
	return key, f
}

// A file's key is one for every handle of it and for its name, and
// another file's differs, even one made under the same name after the
// first was renamed away: what a kernel-lock claim relies on. On Windows
// this is the handle's key (GetFileInformationByHandle), the one case
// here that only a Windows run proves.
func TestFileKeyNamesOneFile(t *testing.T) {
	fsys, _ := newFS(t)
	a, _ := keyOfOpen(t, fsys, "f", os.O_RDWR|os.O_CREATE|os.O_EXCL)
	b, _ := keyOfOpen(t, fsys, "f", os.O_RDONLY)
	if a != b {
		t.Errorf("two handles of one file: keys %+v and %+v; want one", a, b)
	}
	if n, ok, err := vfs.KeyOfName(fsys, "f"); err != nil || !ok || n != a {
		t.Errorf("KeyOfName(f) = %+v, %v, %v; want %+v", n, ok, err, a)
	}
	other, _ := keyOfOpen(t, fsys, "g", os.O_RDWR|os.O_CREATE|os.O_EXCL)
	if other == a {
		t.Errorf("two files share the key %+v", a)
	}
	if err := fsys.Rename("f", "moved"); err != nil {
		t.Fatal(err)
	}
	again, _ := keyOfOpen(t, fsys, "f", os.O_RDWR|os.O_CREATE|os.O_EXCL)
	if again == a {
		t.Errorf("a new file under the name of one renamed away has its key %+v", a)
	}
	if moved, ok, err := vfs.KeyOfName(fsys, "moved"); err != nil || !ok || moved != a {
		t.Errorf("KeyOfName(moved) = %+v, %v, %v; want the renamed file's %+v", moved, ok, err, a)
	}
}
