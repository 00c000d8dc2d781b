// Package estatetest gives tests a fresh estate on each class of the spec's
// table (spec: States and crash points): the real OS with hard links, and
// the same folder through nolinkfs, whose link() fails with ENOTSUP.
package estatetest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// Class is one column of the spec's table.
type Class struct {
	// Name is "links" or "nolinks".
	Name string
	// Wrap turns the real OS into this class.
	Wrap func(vfs.FS) vfs.FS
}

// Classes are the two columns: hard links, and no hard links (ENOTSUP)
// with the spec's exclusive create (nolinkfs ExclusiveCreate), the
// spec's column; the directory publish, the default there, is tested in
// internal/lockspec.
var Classes = []Class{
	{"links", func(f vfs.FS) vfs.FS { return f }},
	{"nolinks", func(f vfs.FS) vfs.FS { return nolinkfs.New(f, syscall.ENOTSUP).ExclusiveCreate() }},
}

// Estate is a fresh estate in a temp folder.
type Estate struct {
	// Dir is the estate's folder on disk.
	Dir string
	// FS is the estate through the class's FS.
	FS vfs.FS
}

// New returns a fresh, empty estate of class c.
func New(t testing.TB, c Class) *Estate {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatalf("osfs.New(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return &Estate{Dir: dir, FS: c.Wrap(o)}
}

// Each runs fn as one subtest per class, each on a fresh estate.
func Each(t *testing.T, fn func(t *testing.T, e *Estate)) {
	t.Helper()
	for _, c := range Classes {
		t.Run(c.Name, func(t *testing.T) { fn(t, New(t, c)) })
	}
}

// Files lists the names under the folder dir of the estate (relative to
// dir, slash-separated, folders with a trailing '/'), sorted. A missing
// folder lists nothing.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		names = append(names, rel)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("listing %s: %v", dir, err)
	}
	slices.Sort(names)
	return names
}

// Snapshot returns every file under dir with its bytes, to check that
// something read-only left the estate byte for byte.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	for _, name := range Files(t, dir) {
		if name[len(name)-1] == '/' {
			snap[name] = ""
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("reading %s: %v", name, err)
		}
		snap[name] = string(b)
	}
	return snap
}

// WriteFile writes content at the slash-separated name under the folder
// dir, creating the folders it needs (to lay out a lock, a corrupt
// spawn-log or a board by hand).
func WriteFile(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
