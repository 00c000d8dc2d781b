package crashfs_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// Creating a name held twice is creating an existing name: O_EXCL fails
// with EEXIST and records nothing, a plain O_CREATE opens the entry
// lookups find.
func TestCreateOfADoubledNameOpensTheFirst(t *testing.T) {
	for _, newFirst := range []bool{false, true} {
		first, other := order(newFirst)
		next := doubled(t, ".", newFirst)
		if _, err := next.OpenFile("log", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); !errors.Is(err, fs.ErrExist) || next.Ops() != 0 {
			t.Errorf("O_CREATE|O_EXCL of log held twice = %v, %d ops; want EEXIST, none", err, next.Ops())
		}
		w, err := next.OpenFile("log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("+")); err != nil {
			t.Fatal(err)
		}
		w.Close()
		want := fmt.Sprintf("[log:%d log:%d] log=%s+", len(first)+1, len(other), first)
		if got := rootAndLog(t)(next); got != want {
			t.Errorf("log held as %s then %s, opened with O_CREATE and appended to: %s; want %s", first, other, got, want)
		}
	}
}

// A listing shows every entry of a name held twice, adjacent and in their
// order, through FS.ReadDir and through an open folder's ReadDir alike.
func TestReadDirListsADoubledNameTwice(t *testing.T) {
	next := doubled(t, ".", true)
	put(t, next, "a", "a", false)
	if got := listing(t, next, "."); got != "[a:1 log:5 log:3]" {
		t.Errorf("FS.ReadDir lists %s; want [a:1 log:5 log:3]", got)
	}
	d, err := next.OpenFile(".", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []string
	for {
		ents, err := d.ReadDir(1)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := ents[0].Info()
		got = append(got, fmt.Sprintf("%s:%d", ents[0].Name(), fi.Size()))
	}
	if s := fmt.Sprint(got); s != "[a:1 log:5 log:3]" {
		t.Errorf("an open folder's ReadDir(1) lists %s; want [a:1 log:5 log:3]", s)
	}
}
