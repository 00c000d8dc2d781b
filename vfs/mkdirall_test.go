package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

func TestMkdirAll(t *testing.T) {
	o, dir := newOS(t)
	if err := vfs.MkdirAll(o, "a/b/c", 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "a/b/c")); err != nil || !fi.IsDir() {
		t.Fatalf("a/b/c not made: %v", err)
	}
	if err := vfs.MkdirAll(o, "a/b/c", 0o755); err != nil {
		t.Fatalf("existing directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a/f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := vfs.MkdirAll(o, "a/f/g", 0o755)
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		t.Fatalf("MkdirAll through a file: %v, want a *fs.PathError", err)
	}
}
