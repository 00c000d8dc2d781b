package crashfs_test

import (
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// Doubled gives two volumes whose folder lists the name twice, a lookup
// finding the older copy on the first and the newer on the second, the
// folders above it there; and refuses two equal copies.
func TestDoubledListsTheNameTwiceInEachOrder(t *testing.T) {
	older, newer, err := crashfs.Doubled("a/b/f.json", []byte("old"), []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	for want, fsys := range map[string]*crashfs.FS{"old": older, "new": newer} {
		entries, err := fsys.ReadDir("a/b")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, de := range entries {
			if de.Name() == "f.json" {
				n++
			}
		}
		data, _, err := vfs.ReadFile(fsys, "a/b/f.json", 0)
		if n != 2 || len(entries) != 2 || err != nil || string(data) != want {
			t.Errorf("a/b lists %d entries, f.json %d times, and a lookup finds %q (%v); want f.json listed twice and nothing else, a lookup finding %q", len(entries), n, data, err, want)
		}
	}
	if _, _, err := crashfs.Doubled("f", []byte("x"), []byte("x")); err == nil {
		t.Error("Doubled with two equal copies succeeded; want an error")
	}
}
