package crashfs_test

import (
	"fmt"
	"testing"

	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// A create whose folder is not synced may vanish, content and all, even
// when the file is synced; once the folder is synced it stays.
func TestUnsyncedCreateCanVanishSyncedStays(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "data", true)
	wantOutcomes(t, fsys, []string{"f=-", "f=data"}, "f")
	syncDir(t, fsys, ".")
	wantOutcomes(t, fsys, []string{"f=data"}, "f")
}

// A remove whose folder is not synced may be undone by a cut.
func TestUnsyncedRemoveCanBeUndone(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "data", true)
	syncDir(t, fsys, ".")
	if err := fsys.Remove("f"); err != nil {
		t.Fatal(err)
	}
	wantOutcomes(t, fsys, []string{"f=-", "f=data"}, "f")
	syncDir(t, fsys, ".")
	wantOutcomes(t, fsys, []string{"f=-"}, "f")
}

// A folder's operations land in order: a later one never without every
// earlier one of that folder, in the extremes and in the samples alike.
func TestFolderOpsLandAsAPrefix(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	if err := fsys.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	syncDir(t, fsys, ".")
	for _, name := range []string{"d/a", "d/b", "d/c"} {
		put(t, fsys, name, "", true)
	}
	if err := fsys.Remove("d/a"); err != nil {
		t.Fatal(err)
	}
	wantOutcomes(t, fsys, []string{"d=[]", "d=[a]", "d=[a b]", "d=[a b c]", "d=[b c]"}, "d")
}

// Two folders are independent: either may have landed its operation
// without the other.
func TestFoldersAreIndependent(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	for _, d := range []string{"d1", "d2"} {
		if err := fsys.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	syncDir(t, fsys, ".")
	put(t, fsys, "d1/a", "", true)
	put(t, fsys, "d2/b", "", true)
	wantOutcomes(t, fsys, []string{"d1=[] d2=[]", "d1=[a] d2=[]", "d1=[] d2=[b]", "d1=[a] d2=[b]"}, "d1", "d2")
}

// A folder made and not yet entered in its synced parent is gone at a cut
// with everything in it, however synced that is.
func TestUnsyncedMkdirTakesItsTreeAlong(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	if err := fsys.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, fsys, "d/f", "x", true)
	syncDir(t, fsys, "d")
	wantOutcomes(t, fsys, []string{"d=- d/f=-", "d=[f] d/f=x"}, "d", "d/f")
}

// A folder's sync commits every entry of a name held twice, in order: a
// cut after it keeps both, the first still the one lookups find.
func TestFolderSyncCommitsEveryEntryOfAName(t *testing.T) {
	for _, newFirst := range []bool{false, true} {
		first, other := order(newFirst)
		next := doubled(t, ".", newFirst)
		put(t, next, "x", "", true)
		syncDir(t, next, ".")
		wantRendered(t, next, []string{fmt.Sprintf("[log:%d log:%d x:0] log=%s", len(first), len(other), first)}, rootAndLog(t))
	}
}
