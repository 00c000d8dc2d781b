package faultfs_test

import (
	"os"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// newFS returns a faultfs over an osfs in a fresh directory, and the osfs.
func newFS(t *testing.T) (*faultfs.FS, *osfs.FS) {
	t.Helper()
	inner, err := osfs.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close() })
	return faultfs.New(inner), inner
}

func writeFile(t *testing.T, fsys vfs.FS, name, data string) {
	t.Helper()
	if err := vfs.WriteFileExclusive(fsys, name, []byte(data), 0o644, false); err != nil {
		t.Fatalf("write %s: %v", name, err)
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

func exists(t *testing.T, fsys vfs.FS, name string) bool {
	t.Helper()
	_, err := fsys.Stat(name)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("stat %s: %v", name, err)
	}
	return err == nil
}
