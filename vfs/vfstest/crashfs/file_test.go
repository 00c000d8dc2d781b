package crashfs_test

import (
	"os"
	"testing"

	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// A write not synced may be lost; once its file is synced it survives, and
// a later unsynced write can only add to it.
func TestUnsyncedWriteCanBeLostSyncedSurvives(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "", false)
	syncDir(t, fsys, ".")
	appendTo(t, fsys, "f", "one", false)
	wantOutcomes(t, fsys, []string{"f=", "f=one"}, "f")
	appendTo(t, fsys, "f", "", true) // an fsync
	wantOutcomes(t, fsys, []string{"f=one"}, "f")
	appendTo(t, fsys, "f", "two", false)
	wantOutcomes(t, fsys, []string{"f=one", "f=onetwo"}, "f")
}

// Writes to a file after its folder's sync, before its own fsync: its name
// stays, its content is a prefix of the writes in their order.
func TestFileWritesAfterFolderSyncBeforeFsync(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "a", false)
	syncDir(t, fsys, ".")
	appendTo(t, fsys, "f", "b", false)
	appendTo(t, fsys, "f", "c", false)
	wantOutcomes(t, fsys, []string{"f=", "f=a", "f=ab", "f=abc"}, "f")
}

// A truncation is a pending change of the file like a write: O_TRUNC of a
// synced file may be undone by a cut.
func TestUnsyncedTruncationCanBeUndone(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "old", true)
	syncDir(t, fsys, ".")
	w, err := fsys.OpenFile("f", os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("n")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	wantOutcomes(t, fsys, []string{"f=old", "f=", "f=n"}, "f")
}

// A torn write shows a prefix of the write that ends on a block boundary
// of the file's offsets, never another length.
func TestTornWriteIsBlockAligned(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{BlockSize: 4})
	put(t, fsys, "f", "xy", true)
	syncDir(t, fsys, ".")
	appendTo(t, fsys, "f", "0123456789", false) // offsets 2 to 11: boundaries at 4 and 8
	wantOutcomes(t, fsys, []string{"f=xy", "f=xy01", "f=xy012345", "f=xy0123456789"}, "f")

	never := crashfs.New(crashfs.Options{BlockSize: -1})
	put(t, never, "f", "xy", true)
	syncDir(t, never, ".")
	appendTo(t, never, "f", "0123456789", false)
	wantOutcomes(t, never, []string{"f=xy", "f=xy0123456789"}, "f")
}
