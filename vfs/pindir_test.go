package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// osWithLock is an osfs whose folder d holds the file l.
func osWithLock(t *testing.T) (*osfs.FS, string) {
	t.Helper()
	o, dir := newOS(t)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", "l"), []byte("l"), 0o644)
	os.WriteFile(filepath.Join(dir, "d", "other"), nil, 0o644)
	return o, dir
}

// A pinned FS serves the names of its folder from the root it opened, with
// the caller's names in every error and every event; other names, and the
// folder itself as a name to change, go to the FS; after unpin everything
// does.
func TestPinDir(t *testing.T) {
	o, dir := osWithLock(t)
	ffs := faultfs.New(o)
	var events []string
	ffs.Before(func(ev faultfs.Event) error {
		events = append(events, ev.Op.String()+" "+ev.Name)
		return nil
	})
	fsys, unpin := vfs.PinDir(ffs, "d")
	if fsys == vfs.FS(ffs) {
		t.Fatal("PinDir over an FS with OpenRoot returned it as it is")
	}
	if err := vfs.WriteFileExclusive(fsys, "d/new", []byte("n"), 0o644, false); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Link("d/new", "d/new2"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Rename("d/new2", "d/new3"); err != nil {
		t.Fatal(err)
	}
	var pe *fs.PathError
	if _, err := fsys.OpenFile("d/absent", os.O_RDONLY, 0); !errors.As(err, &pe) || pe.Path != "d/absent" {
		t.Errorf("OpenFile(d/absent) = %#v, want a *fs.PathError naming d/absent", err)
	}
	var le *os.LinkError
	if err := fsys.Link("d/absent", "d/x"); !errors.As(err, &le) || le.Old != "d/absent" || le.New != "d/x" {
		t.Errorf("Link = %#v, want an *os.LinkError naming d/absent and d/x", err)
	}
	if err := fsys.Link("d/new", "d/l"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Link onto an existing name = %v, want fs.ErrExist", err)
	}
	if err := vfs.SyncDir(fsys, "d"); err != nil {
		t.Errorf("SyncDir(d): %v", err)
	}
	if _, err := fsys.ReadDir("d"); err != nil {
		t.Errorf("ReadDir(d): %v", err)
	}
	// The folder itself is changed through the FS, never as "." of its root.
	if err := fsys.Rename("d", "e"); err != nil {
		t.Fatalf("Rename(d, e): %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "e", "new3")); err != nil {
		t.Fatalf("the folder was not renamed: %v", err)
	}
	// Still pinned: the folder it opened, now at e.
	if err := vfs.WriteFileExclusive(fsys, "d/after", nil, 0o644, false); err != nil {
		t.Fatalf("a create in the pinned folder after its rename: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "e", "after")); err != nil {
		t.Errorf("the create did not land in the folder opened: %v", err)
	}
	if err := unpin(); err != nil {
		t.Fatal(err)
	}
	if err := unpin(); err != nil {
		t.Fatalf("a second unpin: %v", err)
	}
	if _, err := fsys.Stat("d/after"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after unpin, Stat(d/after) = %v; want the FS's answer for d, which is gone", err)
	}
	if _, err := fsys.Stat("e/after"); err != nil {
		t.Errorf("after unpin, Stat(e/after): %v", err)
	}
	for _, want := range []string{"openroot d", "open d/new", "link d/new", "rename d/new2", "open d/absent", "open d", "readdir d", "rename d"} {
		found := false
		for _, ev := range events {
			if ev == want {
				found = true
			}
		}
		if !found {
			t.Errorf("no event %q among %q: the root of faultfs must name calls by their names in the FS", want, events)
		}
	}
}

// PinDir leaves fsys as it is where it cannot pin: no OpenRoot, ".", a
// missing folder.
func TestPinDirCannot(t *testing.T) {
	o, _ := osWithLock(t)
	for _, c := range []struct {
		fsys vfs.FS
		dir  string
	}{{plain{o}, "d"}, {o, "."}, {o, "missing"}, {o, "../d"}} {
		got, unpin := vfs.PinDir(c.fsys, c.dir)
		if got != c.fsys {
			t.Errorf("PinDir(%T, %q) pinned", c.fsys, c.dir)
		}
		if err := unpin(); err != nil {
			t.Errorf("unpin: %v", err)
		}
	}
}

type plain struct{ vfs.FS }
