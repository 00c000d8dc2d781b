package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/pa-toolkit/pa/vfs/osfs"
)

// IsEscape tells the refusal of an escaping name from every other error.
func TestIsEscape(t *testing.T) {
	fsys, dir := newFS(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	_, up := fsys.Stat("../x")
	_, through := fsys.OpenFile("out/new", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	for what, err := range map[string]error{"..": up, "a symlink out": through, "a rename out": fsys.Rename("out", "out/x")} {
		if !osfs.IsEscape(err) {
			t.Errorf("%s: IsEscape(%v) = false", what, err)
		}
	}
	_, missing := fsys.Stat("missing")
	for _, err := range []error{nil, missing, fs.ErrNotExist, errors.New("path escapes")} {
		if osfs.IsEscape(err) {
			t.Errorf("IsEscape(%v) = true", err)
		}
	}
}
