package osfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// newFS returns an FS rooted at a fresh temporary directory, and that
// directory.
func newFS(t *testing.T) (*osfs.FS, string) {
	t.Helper()
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatalf("New(%q): %v", dir, err)
	}
	t.Cleanup(func() { fsys.Close() })
	return fsys, dir
}

func writeFile(t *testing.T, fsys vfs.FS, name, data string) {
	t.Helper()
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	if _, err := f.Write([]byte(data)); err != nil {
		t.Fatalf("write %s: %v", name, err)
	}
	if err := f.Close(); err != nil {
		t.Fatalf("close %s: %v", name, err)
	}
}

func readFile(t *testing.T, fsys vfs.FS, name string) string {
	t.Helper()
	data, _, err := vfs.ReadFile(fsys, name, 0)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(data)
}

func TestNewMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	fsys, err := osfs.New(dir)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("New(%q) = %v, %v; want an error matching fs.ErrNotExist", dir, fsys, err)
	}
}

func TestDir(t *testing.T) {
	fsys, dir := newFS(t)
	if got := fsys.Dir(); got != dir {
		t.Errorf("Dir() = %q, want %q", got, dir)
	}
}

func TestExclusiveCreateOneWinner(t *testing.T) {
	fsys, _ := newFS(t)
	const rounds, racers = 50, 32
	for round := range rounds {
		name := fmt.Sprintf("lock-%d", round)
		start := make(chan struct{})
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() {
				<-start
				f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				if err == nil {
					err = f.Close()
				}
				errs[i] = err
			})
		}
		close(start)
		wg.Wait()
		winners := 0
		for _, err := range errs {
			switch {
			case err == nil:
				winners++
			case !errors.Is(err, fs.ErrExist):
				t.Fatalf("round %d: a losing create failed with %v, want fs.ErrExist", round, err)
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d of %d exclusive creates of %s won, want exactly 1", round, winners, racers, name)
		}
	}
}

func TestMissingParent(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "a", "x")
	tests := []struct {
		what string
		err  error
	}{
		{"create", func() error {
			_, err := fsys.OpenFile("no/such/file", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			return err
		}()},
		{"stat", func() error { _, err := fsys.Stat("no/file"); return err }()},
		{"readdir", func() error { _, err := fsys.ReadDir("no"); return err }()},
		{"mkdir", fsys.Mkdir("no/dir", 0o755)},
		{"link", fsys.Link("a", "no/a")},
		{"rename", fsys.Rename("a", "no/a")},
		{"remove", fsys.Remove("no/a")},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, fs.ErrNotExist) {
			t.Errorf("%s under a missing parent: %v, want an error matching fs.ErrNotExist", tt.what, tt.err)
		}
	}
}

func TestRenameOverFile(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "old", "new contents")
	writeFile(t, fsys, "target", "old contents")
	if err := fsys.Rename("old", "target"); err != nil {
		t.Fatalf("Rename over a file: %v", err)
	}
	if got := readFile(t, fsys, "target"); got != "new contents" {
		t.Errorf("target holds %q after the rename, want %q", got, "new contents")
	}
	if _, err := fsys.Stat("old"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(old) after the rename: %v, want fs.ErrNotExist", err)
	}
}

func TestLink(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "a", "x")
	writeFile(t, fsys, "b", "y")
	if err := fsys.Link("a", "c"); err != nil {
		t.Fatalf("Link(a, c): %v", err)
	}
	if got := readFile(t, fsys, "c"); got != "x" {
		t.Errorf("c holds %q, want the contents of a, %q", got, "x")
	}
	err := fsys.Link("a", "b")
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Link onto an existing name: %v, want fs.ErrExist", err)
	}
	if vfs.NoHardLinks(err) {
		t.Errorf("NoHardLinks(%v) = true, want false", err)
	}
	if got := readFile(t, fsys, "b"); got != "y" {
		t.Errorf("b holds %q after a refused link, want %q", got, "y")
	}
}

func TestMkdirRemove(t *testing.T) {
	fsys, _ := newFS(t)
	if err := fsys.Mkdir("d", 0o755); err != nil {
		t.Fatalf("Mkdir(d): %v", err)
	}
	if err := fsys.Mkdir("d", 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir of an existing directory: %v, want fs.ErrExist", err)
	}
	if fi, err := fsys.Stat("d"); err != nil || !fi.IsDir() {
		t.Fatalf("Stat(d) = %v, %v; want a directory", fi, err)
	}
	if err := fsys.Remove("d"); err != nil {
		t.Fatalf("Remove(d): %v", err)
	}
	if err := fsys.Remove("d"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second Remove(d): %v, want fs.ErrNotExist", err)
	}
}

func TestReadDirSorted(t *testing.T) {
	fsys, _ := newFS(t)
	names := []string{"m", "b", "z", "a.tmp", "a", "B", "k"}
	for _, name := range names {
		writeFile(t, fsys, name, name)
	}
	if err := fsys.Mkdir("c", 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := fsys.ReadDir(".")
	if err != nil {
		t.Fatalf("ReadDir(.): %v", err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := slices.Sorted(slices.Values(append(names, "c")))
	if !slices.Equal(got, want) {
		t.Errorf("ReadDir(.) names = %q, want %q", got, want)
	}
}

func TestReadDirOfFile(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "f", "x")
	_, err := fsys.ReadDir("f")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "f" {
		t.Fatalf("ReadDir of a file: %#v, want a *fs.PathError naming %q", err, "f")
	}
}

func TestErrorTypes(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "a", "x")
	pathErrors := []struct {
		err    error
		op     string
		path   string
		target error
	}{
		{func() error { _, err := fsys.OpenFile("a", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); return err }(), "openat", "a", fs.ErrExist},
		{func() error { _, err := fsys.Stat("zz"); return err }(), "statat", "zz", fs.ErrNotExist},
		{fsys.Mkdir("a", 0o755), "mkdirat", "a", fs.ErrExist},
		{fsys.Remove("zz"), "removeat", "zz", fs.ErrNotExist},
		{fsys.Chtimes("zz", time0, time0), "chtimesat", "zz", fs.ErrNotExist},
	}
	for _, tt := range pathErrors {
		var pe *fs.PathError
		if !errors.As(tt.err, &pe) {
			t.Errorf("%s %s: %T %v, want *fs.PathError", tt.op, tt.path, tt.err, tt.err)
			continue
		}
		if pe.Op != tt.op || pe.Path != tt.path || !errors.Is(pe, tt.target) {
			t.Errorf("got *fs.PathError{Op: %q, Path: %q, Err: %v}, want Op %q, Path %q matching %v",
				pe.Op, pe.Path, pe.Err, tt.op, tt.path, tt.target)
		}
	}
	linkErrors := []struct {
		err      error
		op       string
		old, new string
	}{
		{fsys.Link("a", "a"), "linkat", "a", "a"},
		{fsys.Rename("zz", "yy"), "renameat", "zz", "yy"},
	}
	for _, tt := range linkErrors {
		var le *os.LinkError
		if !errors.As(tt.err, &le) {
			t.Errorf("%s %s %s: %T %v, want *os.LinkError", tt.op, tt.old, tt.new, tt.err, tt.err)
			continue
		}
		if le.Op != tt.op || le.Old != tt.old || le.New != tt.new {
			t.Errorf("got *os.LinkError{Op: %q, Old: %q, New: %q}, want %q %q %q",
				le.Op, le.Old, le.New, tt.op, tt.old, tt.new)
		}
	}
}
