package osfs_test

import (
	"testing"
	"time"
)

func TestChtimes(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "f", "x")
	mtime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := fsys.Chtimes("f", mtime, mtime); err != nil {
		t.Fatalf("Chtimes: %v", err)
	}
	fi, err := fsys.Stat("f")
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(mtime) {
		t.Errorf("ModTime() = %v after Chtimes, want %v", fi.ModTime(), mtime)
	}
}
