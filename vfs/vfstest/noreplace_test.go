package vfstest_test

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

// replacingFS is an FS whose RenameNoReplace is a plain rename: it replaces
// a file, the defect rename-no-replace exists to catch.
type replacingFS struct{ vfs.FS }

func (r replacingFS) RenameNoReplace(oldname, newname string) error {
	return r.Rename(oldname, newname)
}

// TestRenameNoReplaceCatchesAReplacingRename shows rename-no-replace
// failing on a RenameNoReplace that replaces, and passing on the real one.
func TestRenameNoReplaceCatchesAReplacingRename(t *testing.T) {
	open := func(t *testing.T, wrap func(vfs.FS) vfs.FS) func() (vfs.FS, error) {
		return func() (vfs.FS, error) {
			o, err := osfs.New(t.TempDir())
			if err != nil {
				return nil, err
			}
			return wrap(o), nil
		}
	}
	onlyThis := vfstest.Options{Rounds: 10, Skip: []string{
		"exclusive-create", "missing-parent", "rename-over-file", "rename-race",
		"rename-onto-directory", "remove-not-empty", "link", "listing-after-create",
		"open-file", "errors", "sync", "chtimes", "io-fs",
	}}
	if err := vfstest.Check(open(t, func(f vfs.FS) vfs.FS { return f }), onlyThis); err != nil {
		t.Fatalf("rename-no-replace on osfs: %v", err)
	}
	err := vfstest.Check(open(t, func(f vfs.FS) vfs.FS { return replacingFS{f} }), onlyThis)
	if err == nil || !strings.HasPrefix(err.Error(), "rename-no-replace: ") {
		t.Fatalf("rename-no-replace on a RenameNoReplace that replaces = %v; want it to fail", err)
	}
	t.Log(err)
}
