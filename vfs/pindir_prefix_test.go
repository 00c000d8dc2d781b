package vfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// TestPinDirSiblingWithSamePrefix: a name that merely starts with the pinned
// folder's name ("d" pinned, "dx" or "d2/y") is not in the folder and goes
// to the FS as it is, never to the pinned root as its tail.
func TestPinDirSiblingWithSamePrefix(t *testing.T) {
	o, dir := osWithLock(t)
	for _, d := range []string{"d", "dxy"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
	fsys, unpin := vfs.PinDir(o, "d")
	defer unpin()
	if fsys == vfs.FS(o) {
		t.Fatal("PinDir over an FS with OpenRoot returned it as it is")
	}
	// "dab" would be "b" in the pinned folder if only the prefix "d" and
	// the length were checked.
	if err := vfs.WriteFileExclusive(fsys, "dab", []byte("sibling"), 0o644, false); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "dab")); err != nil || string(data) != "sibling" {
		t.Errorf("dab reads %q, %v; want the file beside d", data, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "d", "b")); err == nil {
		t.Errorf("d/b exists: a write of dab went into the pinned folder")
	}
}
