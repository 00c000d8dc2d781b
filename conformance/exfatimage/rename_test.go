package exfatimage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// TestRenameEntryDoublesAName renames a file to the name of another in the
// same folder, and checks the image: fsck.exfat finds it clean (it checks
// each set's SetChecksum and NameHash; exfatprogs 1.2.0 does not look for
// a name listed twice), only the renamed set's bytes changed, the folder
// holds the name twice in directory order, and exfat-fuse lists it twice. The second case puts the renamed set across
// two clusters of a folder that is not contiguous (a FAT chain).
func TestRenameEntryDoublesAName(t *testing.T) {
	needTools(t, true)
	dir := []string{"agents", "demo"}
	var fillers []fileEntry
	for i := range 41 {
		// 41 sets of 3 entries after the first file's: spawn-log.jsoo's set
		// starts at the folder's entry 126, and a cluster (4 KiB) holds 128.
		// Their data clusters, allocated as they are written, keep the
		// folder's second cluster away from its first.
		fillers = append(fillers, fileEntry{fmt.Sprintf("f%02d", i), "filler"})
	}
	for _, tc := range []struct {
		name    string
		fillers []fileEntry
	}{
		{"in one cluster", nil},
		{"across two clusters", fillers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := []fileEntry{{"spawn-log.json", "first\n"}}
			files = append(files, tc.fillers...)
			files = append(files, fileEntry{"spawn-log.jsoo", "second\n"})
			image := imageWith(t, dir, files...)
			set := setEntries(t, image, dir, "spawn-log.jsoo")
			if split := set[2]-set[1] != entrySize; split != (tc.fillers != nil) {
				t.Fatalf("spawn-log.jsoo's entries lie at %d in the image: split between two clusters apart %v, want %v", set, split, tc.fillers != nil)
			}
			if err := fsck(image); err != nil {
				t.Fatalf("before the rename: %v", err)
			}
			before, err := os.ReadFile(image)
			if err != nil {
				t.Fatal(err)
			}

			if err := RenameEntry(image, dir, "spawn-log.jsoo", "spawn-log.json"); err != nil {
				t.Fatal(err)
			}

			after, err := os.ReadFile(image)
			if err != nil {
				t.Fatal(err)
			}
			for i := range before {
				if before[i] != after[i] && !slices.ContainsFunc(set, func(at int64) bool { return at <= int64(i) && int64(i) < at+entrySize }) {
					t.Errorf("byte %d changed, %#02x to %#02x, outside the renamed set's entries at %d", i, before[i], after[i], set)
					break
				}
			}
			if err := fsck(image); err != nil {
				t.Errorf("after the rename, fsck.exfat finds the image not clean (a wrong SetChecksum or NameHash, or a fsck that now reports a name listed twice): %v", err)
			}
			if got, want := named(folderEntries(t, image, dir), "spawn-log.json"), []string{"first\n", "second\n"}; !slices.Equal(got, want) {
				t.Errorf("in directory order, the files named spawn-log.json hold %q, want %q", got, want)
			}
			if got := named(folderEntries(t, image, dir), "spawn-log.jsoo"); len(got) != 0 {
				t.Errorf("spawn-log.jsoo is still there, holding %q", got)
			}
			mnt, unmount := mount(t, image)
			defer unmount()
			if got := listed(t, filepath.Join(mnt, "agents", "demo"), "spawn-log.json"); got != 2 {
				t.Errorf("exfat-fuse lists spawn-log.json %d times, want 2", got)
			}
		})
	}
}

// TestRenameEntryRefuses checks that RenameEntry refuses what it cannot
// write, with an error that says why, and leaves the image as it was.
func TestRenameEntryRefuses(t *testing.T) {
	needTools(t, false)
	empty := newImage(t) // a root directory without files
	notExFAT := filepath.Join(t.TempDir(), "zeros.img")
	if err := os.WriteFile(notExFAT, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		image    string
		dir      []string
		from, to string
		want     string // in the error
		is       error  // matched by the error, when set
	}{
		{"more file-name entries", empty, nil, "a", "a-name-of-16-chr", "1 file-name entries", nil},
		{"fewer file-name entries", empty, nil, "a-name-of-16-chr", "a", "2 file-name entries", nil},
		{"not ASCII", empty, nil, "spawn-log.jsoo", "spawn-lög.json", "not ASCII", nil},
		{"a slash", empty, nil, "spawn-log.jsoo", "agents/x", "forbids", nil},
		{"empty", empty, nil, "spawn-log.jsoo", "", "1 to 255", nil},
		{"not exFAT", notExFAT, nil, "a", "b", "not an exFAT volume", nil},
		{"no such file", empty, nil, "spawn-log.jsoo", "spawn-log.json", "/spawn-log.jsoo", fs.ErrNotExist},
		{"no such folder", empty, []string{"agents"}, "a", "b", "/agents", fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := os.ReadFile(tc.image)
			if err != nil {
				t.Fatal(err)
			}
			err = RenameEntry(tc.image, tc.dir, tc.from, tc.to)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("RenameEntry(%q, %q, %q) = %v, want an error saying %q", tc.dir, tc.from, tc.to, err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("RenameEntry(%q, %q, %q) = %v, want one matching %v", tc.dir, tc.from, tc.to, err, tc.is)
			}
			if after, err := os.ReadFile(tc.image); err != nil || !bytes.Equal(before, after) {
				t.Errorf("the image changed (read error: %v)", err)
			}
		})
	}
}

// setEntries returns where the entries of the set named name, in the
// folder dir of the unmounted image, lie in the image.
func setEntries(t *testing.T, image string, dir []string, name string) []int64 {
	t.Helper()
	_, v, d := openFolder(t, image, dir)
	s, err := d.lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var at []int64
	for i := range s.count {
		at = append(at, v.imageAt(d, s.start+i*entrySize))
	}
	return at
}

// listed counts the names name that os.ReadDir lists in dir.
func listed(t *testing.T, dir, name string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return vfs.CountNamed(entries, name)
}
