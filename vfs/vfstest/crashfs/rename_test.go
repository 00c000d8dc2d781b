package crashfs_test

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// commitSetup makes a synced log=old and a synced tmp=new in a synced
// folder, the state before a commit's rename.
func commitSetup(t *testing.T, opts crashfs.Options) *crashfs.FS {
	t.Helper()
	fsys := crashfs.New(opts)
	put(t, fsys, "log", "old", true)
	put(t, fsys, "tmp", "new", true)
	syncDir(t, fsys, ".")
	if err := fsys.Rename("tmp", "log"); err != nil {
		t.Fatal(err)
	}
	return fsys
}

// A rename after which its folder is synced is durable.
func TestRenameDurableAfterFolderSync(t *testing.T) {
	for _, exfat := range []bool{false, true} {
		fsys := commitSetup(t, crashfs.Options{ExFAT: exfat})
		syncDir(t, fsys, ".")
		wantOutcomes(t, fsys, []string{"log=new tmp=-"}, "log", "tmp")
	}
}

// Without the folder's sync the old names may remain; without exFAT the
// rename is atomic: only the states before and after it.
func TestRenameWithoutFolderSyncIsBeforeOrAfter(t *testing.T) {
	fsys := commitSetup(t, crashfs.Options{})
	wantOutcomes(t, fsys, []string{"log=old tmp=new", "log=new tmp=-"}, "log", "tmp")
}

// On exFAT a rename over a target is three entry writes with no barrier:
// a cut may leave both names, or neither the target's old nor its new
// content, or any other subset.
func TestExFATRenameCanLeaveBothNamesOrNeitherTarget(t *testing.T) {
	fsys := commitSetup(t, crashfs.Options{ExFAT: true})
	wantOutcomes(t, fsys, []string{
		"log=old tmp=new", // nothing landed
		"log=new tmp=new", // the new entry: both names
		"log=old tmp=-",   // the old entry's removal alone
		"log=- tmp=new",   // the target's removal alone: neither target
		"log=- tmp=-",     // both removals, not the new entry
		"log=new tmp=-",   // all of it
	}, "log", "tmp")
}

// On exFAT a rename to an absent name is two entry writes: both names, or
// neither.
func TestExFATRenameToAbsentName(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{ExFAT: true})
	put(t, fsys, "tmp", "new", true)
	syncDir(t, fsys, ".")
	if err := vfs.RenameNoReplace(fsys, "tmp", "log"); err != nil {
		t.Fatal(err)
	}
	wantOutcomes(t, fsys, []string{"log=- tmp=new", "log=new tmp=new", "log=- tmp=-", "log=new tmp=-"}, "log", "tmp")
}

// A rename across two folders is one operation in each, landing with each
// folder's prefix: both names or neither until both folders are synced.
func TestRenameAcrossFoldersLandsPerFolder(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	for _, d := range []string{"a", "b"} {
		if err := fsys.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put(t, fsys, "a/f", "x", true)
	syncDir(t, fsys, "a")
	syncDir(t, fsys, ".")
	if err := fsys.Rename("a/f", "b/f"); err != nil {
		t.Fatal(err)
	}
	wantOutcomes(t, fsys, []string{"a=[f] b=[]", "a=[f] b=[f]", "a=[] b=[]", "a=[] b=[f]"}, "a", "b")
	syncDir(t, fsys, "b")
	wantOutcomes(t, fsys, []string{"a=[f] b=[f]", "a=[] b=[f]"}, "a", "b")
	syncDir(t, fsys, "a")
	wantOutcomes(t, fsys, []string{"a=[] b=[f]"}, "a", "b")
}

// RenameNoReplace refuses an existing name with EEXIST and records
// nothing.
func TestRenameNoReplaceRefusesAndRecordsNothing(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "a", "A", false)
	put(t, fsys, "b", "B", false)
	n := fsys.Ops()
	if err := fsys.RenameNoReplace("a", "b"); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("RenameNoReplace(a, b) onto an existing b = %v; want EEXIST", err)
	}
	if fsys.Ops() != n {
		t.Errorf("a refused rename recorded %d ops", fsys.Ops()-n)
	}
}

// Without exFAT no state lists a name twice: a rename's new entry lands
// with the replaced entry's removal, in one folder or across two.
func TestPOSIXRenameNeverLeavesANameTwice(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	for _, d := range []string{"a", "b"} {
		if err := fsys.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	syncDir(t, fsys, ".")
	for _, name := range []string{"a/log", "a/tmp", "b/log", "b/tmp"} {
		put(t, fsys, name, name, true)
	}
	syncDir(t, fsys, "a")
	for _, mv := range [][2]string{{"a/tmp", "a/log"}, {"b/tmp", "a/log"}, {"a/log", "b/log"}} {
		if err := fsys.Rename(mv[0], mv[1]); err != nil {
			t.Fatal(err)
		}
	}
	for n := range fsys.Ops() + 1 {
		cut, err := fsys.CutAt(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range cut.States(rand.New(rand.NewPCG(uint64(n), 3)), 100) {
			next := st.FS()
			for _, d := range []string{".", "a", "b"} {
				ents, err := next.ReadDir(d)
				if err != nil {
					continue // a folder the cut lost
				}
				for i := 1; i < len(ents); i++ {
					if ents[i].Name() == ents[i-1].Name() {
						t.Fatalf("%s is listed twice in %s:\n%s", ents[i].Name(), d, st)
					}
				}
			}
		}
	}
}
