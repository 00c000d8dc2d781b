package osfs_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDotDotAloneRefused: ".." on its own is a name with no slash, so the
// calls made straight from the root's descriptor (openat) would resolve it
// to the root's parent; every operation must still refuse it.
func TestDotDotAloneRefused(t *testing.T) {
	fsys, _ := newFS(t)
	if f, err := fsys.OpenFile("..", os.O_RDONLY, 0); err == nil {
		f.Close()
		t.Errorf(`OpenFile("..") succeeded, want it refused as outside the root`)
	}
	if _, err := fsys.ReadDir(".."); err == nil {
		t.Errorf(`ReadDir("..") succeeded, want it refused as outside the root`)
	}
	if _, err := fsys.ReadDirPrefix("..", []string{""}); err == nil {
		t.Errorf(`ReadDirPrefix("..") succeeded, want it refused as outside the root`)
	}
}

// TestSymlinkedFolderOutsideNotListed: a symbolic link in the root to a
// directory outside it is never listed (the listing straight from the
// root's descriptor opens with O_NOFOLLOW; the root refuses the escape).
func TestSymlinkedFolderOutsideNotListed(t *testing.T) {
	fsys, dir := newFS(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "outdir")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	if ents, err := fsys.ReadDir("outdir"); err == nil {
		t.Errorf(`ReadDir("outdir") = %v, want it refused: the link leads outside the root`, ents)
	}
	if ents, err := fsys.ReadDirPrefix("outdir", []string{"sec"}); err == nil {
		t.Errorf(`ReadDirPrefix("outdir") = %v, want it refused: the link leads outside the root`, ents)
	}
	if w, err := fsys.WatchRemoval("outdir/secret"); err == nil {
		w.Close()
		t.Errorf(`WatchRemoval("outdir/secret") succeeded, want it refused: the folder is outside the root`)
	}
}
