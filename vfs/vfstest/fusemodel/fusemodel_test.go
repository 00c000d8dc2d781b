package fusemodel_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

func newFS(t *testing.T) (*fusemodel.FS, *osfs.FS) {
	t.Helper()
	o, err := osfs.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return fusemodel.New(o), o
}

func write(t *testing.T, fsys vfs.FS, name, data string) {
	t.Helper()
	if err := vfs.WriteFileExclusive(fsys, name, []byte(data), 0o644, false); err != nil {
		t.Fatal(err)
	}
}

func ls(t *testing.T, fsys vfs.FS) []string {
	t.Helper()
	entries, err := fsys.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range entries {
		names = append(names, de.Name())
	}
	return names
}

func open(t *testing.T, fsys vfs.FS, name string) vfs.File {
	t.Helper()
	f, err := fsys.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// hidden returns the names of the listing that are FUSE hidden files.
func hidden(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ".fuse_hidden") {
			out = append(out, n)
		}
	}
	return out
}

// A file removed while open stays as one .fuse_hidden name, which the
// handle still reads, until the last handle is closed.
func TestRemoveOpenFileHidesIt(t *testing.T) {
	fsys, _ := newFS(t)
	write(t, fsys, "a", "old")
	f1, f2 := open(t, fsys, "a"), open(t, fsys, "a")
	if err := fsys.Remove("a"); err != nil {
		t.Fatal(err)
	}
	got := ls(t, fsys)
	if h := hidden(got); len(h) != 1 || slices.Contains(got, "a") {
		t.Fatalf("after removing an open file the folder holds %q; want one .fuse_hidden name and no a", got)
	}
	if _, err := fsys.Stat("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(a) after the remove: %v, want fs.ErrNotExist", err)
	}
	if b, err := io.ReadAll(f1); err != nil || string(b) != "old" {
		t.Errorf("the open handle reads %q, %v; want the old bytes", b, err)
	}
	f1.Close()
	if h := hidden(ls(t, fsys)); len(h) != 1 {
		t.Fatalf("with one handle still open the folder holds %q hidden; want one", h)
	}
	f2.Close()
	if got := ls(t, fsys); len(got) != 0 {
		t.Fatalf("after the last close the folder holds %q; want nothing", got)
	}
	if h := fsys.Hidden(); len(h) != 1 {
		t.Errorf("Hidden() = %q, want the one name made", h)
	}
}

// A rename over a file still open hides the old file; a rename of an open
// file itself hides nothing, and a later remove of its new name does.
func TestRenameOverOpenFileHidesTheOldOne(t *testing.T) {
	fsys, _ := newFS(t)
	write(t, fsys, "new", "new")
	write(t, fsys, "old", "old")
	f := open(t, fsys, "old")
	if err := fsys.Rename("new", "old"); err != nil {
		t.Fatal(err)
	}
	got := ls(t, fsys)
	if h := hidden(got); len(h) != 1 || !slices.Contains(got, "old") || slices.Contains(got, "new") {
		t.Fatalf("after a rename over an open file the folder holds %q; want old and one hidden name", got)
	}
	if b, _, err := vfs.ReadFile(fsys, "old", 0); err != nil || string(b) != "new" {
		t.Errorf("old reads %q, %v; want the renamed file's bytes", b, err)
	}
	f.Close()
	if got := ls(t, fsys); !slices.Equal(got, []string{"old"}) {
		t.Fatalf("after the close the folder holds %q; want only old", got)
	}

	g := open(t, fsys, "old")
	if err := fsys.Rename("old", "moved"); err != nil {
		t.Fatal(err)
	}
	if h := hidden(ls(t, fsys)); len(h) != 0 {
		t.Fatalf("renaming an open file (not over one) hid %q", h)
	}
	if err := fsys.Remove("moved"); err != nil {
		t.Fatal(err)
	}
	if h := hidden(ls(t, fsys)); len(h) != 1 {
		t.Fatalf("removing the moved open file left %q hidden; want one", h)
	}
	g.Close()
	if got := ls(t, fsys); len(got) != 0 {
		t.Fatalf("after the close the folder holds %q; want nothing", got)
	}
}

// Files with no open handle go at once, as on any volume.
func TestClosedFilesGoAtOnce(t *testing.T) {
	fsys, _ := newFS(t)
	write(t, fsys, "a", "a")
	write(t, fsys, "b", "b")
	f := open(t, fsys, "a")
	f.Close()
	if err := fsys.Rename("b", "a"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Remove("a"); err != nil {
		t.Fatal(err)
	}
	if got := ls(t, fsys); len(got) != 0 || len(fsys.Hidden()) != 0 {
		t.Fatalf("the folder holds %q, hidden made %q; want nothing", got, fsys.Hidden())
	}
	if err := fsys.Remove("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove of a missing name: %v, want fs.ErrNotExist", err)
	}
}
