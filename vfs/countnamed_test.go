package vfs_test

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/pa-toolkit/pa/vfs"
)

// CountNamed counts every entry of the name, none of another, and none of
// a name that only begins like it.
func TestCountNamed(t *testing.T) {
	entries, err := fs.ReadDir(fstest.MapFS{"a": {}, "ab": {}, "b": {}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	doubled := append(entries[:1:1], entries...) // "a" listed twice
	for _, tc := range []struct {
		entries []fs.DirEntry
		base    string
		want    int
	}{
		{entries, "a", 1}, {doubled, "a", 2}, {doubled, "ab", 1}, {doubled, "c", 0}, {nil, "a", 0},
	} {
		if got := vfs.CountNamed(tc.entries, tc.base); got != tc.want {
			t.Errorf("CountNamed(%d entries, %q) = %d, want %d", len(tc.entries), tc.base, got, tc.want)
		}
	}
}
