package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// subRoot is an FS opened by OpenRoot on the folder "sub" of a fresh root.
func subRoot(t *testing.T) (vfs.RootFS, string) {
	t.Helper()
	fsys, dir := newFS(t)
	if err := fsys.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	sub, err := fsys.OpenRoot("sub")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Close() })
	return sub, filepath.Join(dir, "sub")
}

// An FS opened by OpenRoot, whose names are opened and listed from its
// folder's descriptor, passes the suite the lock relies on.
func TestVFSOfOpenRoot(t *testing.T) {
	vfstest.Run(t, func(t *testing.T) vfs.FS { sub, _ := subRoot(t); return sub }, vfstest.Options{})
}

// Its names are relative to its folder, and none leaves it: not "..", not a
// symbolic link to the folder above; a link inside it is followed.
func TestOpenRootStaysInside(t *testing.T) {
	sub, dir := subRoot(t)
	os.WriteFile(filepath.Join(dir, "..", "above"), []byte("above"), 0o644)
	os.WriteFile(filepath.Join(dir, "in"), []byte("in"), 0o644)
	if err := os.Symlink("../above", filepath.Join(dir, "up")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	os.Symlink("in", filepath.Join(dir, "same"))
	os.Symlink("missing", filepath.Join(dir, "dangling"))
	for _, name := range []string{"../above", "up"} {
		if f, err := sub.OpenFile(name, os.O_RDONLY, 0); err == nil {
			f.Close()
			t.Errorf("OpenFile(%s) opened a file outside the folder", name)
		}
	}
	data, _, err := vfs.ReadFile(sub, "same", 0)
	if err != nil || string(data) != "in" {
		t.Errorf("a symbolic link inside the folder reads %q, %v; want it followed", data, err)
	}
	if _, err := sub.OpenFile("dangling", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("an exclusive create over a dangling link = %v, want fs.ErrExist", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing")); err == nil {
		t.Error("the exclusive create followed the dangling link")
	}
	if _, err := sub.OpenFile("absent", os.O_RDONLY, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenFile of a missing name = %v, want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if _, err := sub.OpenFile("absent", os.O_RDONLY, 0); !errors.As(err, &pe) || pe.Path != "absent" {
		t.Errorf("the error names %#v, want the name in the FS, absent", err)
	}
}

// It stays on the folder it opened when that folder is renamed.
func TestOpenRootFollowsItsFolder(t *testing.T) {
	sub, dir := subRoot(t)
	if err := os.Rename(dir, dir+"-moved"); err != nil {
		t.Fatal(err)
	}
	if err := vfs.WriteFileExclusive(sub, "x", []byte("x"), 0o644, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir+"-moved", "x")); err != nil {
		t.Fatalf("the file is not in the folder the root opened: %v", err)
	}
}

// vfs.ReadDirPrefix over osfs lists only the names with one of the
// prefixes, with their types, and their Info through the root; none is
// nil. ReadDir lists every name, sorted.
func TestReadDirPrefix(t *testing.T) {
	fsys, dir := newFS(t)
	for _, d := range []string{"d", "d/x.lock.dir"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	for _, f := range []string{"x.lock", "x.lock.pending-1", "x.tmp-2", "y.lock.pending-3", "unrelated"} {
		os.WriteFile(filepath.Join(dir, "d", f), []byte(f), 0o644)
	}
	os.Symlink("x.lock", filepath.Join(dir, "d", "x.lock.link"))
	for _, name := range []string{"d"} {
		ents, err := vfs.ReadDirPrefix(fsys, name, []string{"x.lock.", "x.tmp-"})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]fs.FileMode{}
		for _, de := range ents {
			got[de.Name()] = de.Type()
			fi, err := de.Info()
			if err != nil || fi.Name() != de.Name() || fi.Mode().Type() != de.Type() {
				t.Errorf("Info of %s = %v, %v; want its own", de.Name(), fi, err)
			}
		}
		want := map[string]fs.FileMode{"x.lock.pending-1": 0, "x.tmp-2": 0, "x.lock.dir": fs.ModeDir, "x.lock.link": fs.ModeSymlink}
		if len(got) != len(want) {
			t.Fatalf("ReadDirPrefix = %v, want %v", got, want)
		}
		for n, m := range want {
			if g, ok := got[n]; !ok || g != m {
				t.Errorf("%s: got %v (listed %v), want type %v", n, g, ok, m)
			}
		}
	}
	if ents, err := vfs.ReadDirPrefix(fsys, "d", []string{"none-"}); err != nil || ents != nil {
		t.Errorf("ReadDirPrefix with no match = %v, %v; want nil", ents, err)
	}
	if _, err := vfs.ReadDirPrefix(fsys, "d/unrelated", []string{"x"}); err == nil {
		t.Error("ReadDirPrefix of a file succeeded")
	}
	if _, err := vfs.ReadDirPrefix(fsys, "missing", []string{"x"}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDirPrefix of a missing folder = %v, want fs.ErrNotExist", err)
	}
	all, err := fsys.ReadDir("d")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range all {
		names = append(names, de.Name())
	}
	if !slices.IsSorted(names) || len(names) != 7 {
		t.Errorf("ReadDir = %q, want the 7 names, sorted", names)
	}
}

// A FS closed refuses every call, its folder's descriptor included.
func TestClosedFS(t *testing.T) {
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
	fsys.Close()
	if _, err := fsys.OpenFile("f", os.O_RDONLY, 0); err == nil {
		t.Error("OpenFile on a closed FS succeeded")
	}
	if _, err := fsys.ReadDir("."); err == nil {
		t.Error("ReadDir on a closed FS succeeded")
	}
}
