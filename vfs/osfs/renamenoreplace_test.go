package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"testing"
)

func TestRenameNoReplace(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "a", "a")
	writeFile(t, fsys, "b", "b")
	err := fsys.RenameNoReplace("a", "b")
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("RenameNoReplace on %s: %v, want errors.ErrUnsupported", runtime.GOOS, err)
		}
		return
	}
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("this volume refuses RENAME_NOREPLACE: %v", err)
	}
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("RenameNoReplace onto an existing name: %v, want fs.ErrExist", err)
	}
	var le *os.LinkError
	if !errors.As(err, &le) || le.Op != "renamenoreplace" || le.Old != "a" || le.New != "b" {
		t.Errorf("error %#v, want *os.LinkError{Op: renamenoreplace, Old: a, New: b}", err)
	}
	if got := readFile(t, fsys, "b"); got != "b" {
		t.Errorf("b holds %q after a refused rename, want %q", got, "b")
	}

	if err := fsys.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsys.RenameNoReplace("a", "d/c"); err != nil {
		t.Fatalf("RenameNoReplace(a, d/c): %v", err)
	}
	if got := readFile(t, fsys, "d/c"); got != "a" {
		t.Errorf("d/c holds %q, want %q", got, "a")
	}
	if _, err := fsys.Stat("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(a) after the rename: %v, want fs.ErrNotExist", err)
	}
	if err := fsys.RenameNoReplace("d/c", "a"); err != nil {
		t.Fatalf("RenameNoReplace(d/c, a): %v", err)
	}

	bad := []struct {
		old, new string
		target   error
	}{
		{"zz", "yy", fs.ErrNotExist},
		{"a", "no/such", fs.ErrNotExist},
		{"a", "d/..", fs.ErrInvalid},
		{"a", "d/", fs.ErrInvalid},
		{".", "e", fs.ErrInvalid},
		{"a", "../x", nil},
		{"a", "/tmp/x", nil},
	}
	for _, tt := range bad {
		err := fsys.RenameNoReplace(tt.old, tt.new)
		if err == nil || (tt.target != nil && !errors.Is(err, tt.target)) {
			t.Errorf("RenameNoReplace(%q, %q) = %v, want an error matching %v", tt.old, tt.new, err, tt.target)
		}
		if !errors.As(err, new(*os.LinkError)) {
			t.Errorf("RenameNoReplace(%q, %q) = %T, want *os.LinkError", tt.old, tt.new, err)
		}
	}
}

func TestRenameNoReplaceSymlinkedParentOutside(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("RenameNoReplace is unsupported here")
	}
	fsys, dir := newFS(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, dir+"/out"); err != nil {
		t.Skip(err)
	}
	writeFile(t, fsys, "a", "a")
	if err := fsys.RenameNoReplace("a", "out/a"); err == nil {
		t.Fatalf("RenameNoReplace into a symbolic link to outside the root succeeded")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the directory outside the root holds %v, want nothing", entries)
	}
}
