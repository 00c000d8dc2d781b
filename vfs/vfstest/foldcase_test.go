package vfstest_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// FoldCase is one folder for every spelling of a name, listed under the
// spelling it was made with; a name no entry folds to is made as given.
func TestFoldCase(t *testing.T) {
	o, err := osfs.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	f := vfstest.FoldCase(o)
	if err := f.Mkdir("Log", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := f.Mkdir("log", 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir log beside Log: %v, want one matching fs.ErrExist", err)
	}
	if fi, err := f.Lstat("LOG"); err != nil || !fi.IsDir() {
		t.Errorf("Lstat LOG: %v, %v; want Log's folder", fi, err)
	}
	if err := f.Mkdir("lOg/board", 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := o.ReadDir("Log")
	if err != nil || len(entries) != 1 || entries[0].Name() != "board" {
		t.Errorf("Log holds %v (%v), want board", entries, err)
	}
	if entries, _ := f.ReadDir("."); len(entries) != 1 || entries[0].Name() != "Log" {
		t.Errorf("the root lists %v, want Log alone", entries)
	}
	_, err = f.Stat("Other")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "Other" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat Other: %v, want a *fs.PathError naming Other, not found", err)
	}
}

// FoldCase passes every check of the package, as a volume that ignores
// case must.
func TestFoldCaseChecks(t *testing.T) {
	vfstest.Run(t, func(t *testing.T) vfs.FS {
		o, err := osfs.New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = o.Close() })
		return vfstest.FoldCase(o)
	}, vfstest.Options{Rounds: 20, Skip: []string{"chtimes"}})
}
