package crashfs_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// The volume of a state has nothing pending: no op, and a cut of it at
// once has one state, itself.
func TestStateFSHasNothingPending(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{ExFAT: true, BlockSize: 2})
	put(t, fsys, "log", "old", true)
	put(t, fsys, "tmp", "new", false)
	if err := fsys.Rename("tmp", "log"); err != nil {
		t.Fatal(err)
	}
	for _, st := range states(t, fsys) {
		next := st.FS()
		if next.Ops() != 0 {
			t.Fatalf("the next boot's volume has %d ops", next.Ops())
		}
		cut, err := next.CutAt(0)
		if err != nil {
			t.Fatal(err)
		}
		again := cut.States(rand.New(rand.NewPCG(2, 2)), 20)
		if cut.Items() != 0 || len(again) != 1 || show(t, again[0].FS(), "log", "tmp") != show(t, next, "log", "tmp") {
			t.Fatalf("a cut of the next boot's volume at once has %d items and %d states; want itself alone\n%s", cut.Items(), len(again), st)
		}
	}
}

// A handle open across the cut is gone: writing through it changes
// neither a state's volume nor another volume of the same state.
func TestHandlesDoNotCrossTheCut(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "one", true)
	syncDir(t, fsys, ".")
	w, err := fsys.OpenFile("f", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st := states(t, fsys)
	if len(st) != 1 {
		t.Fatalf("%d states; want 1", len(st))
	}
	next := st[0].FS()
	if _, err := w.Write([]byte("late")); err != nil {
		t.Fatal(err)
	}
	appendTo(t, next, "f", "boot", true)
	if got := show(t, next, "f"); got != "f=oneboot" {
		t.Errorf("the next boot's volume shows %s; want f=oneboot", got)
	}
	if got := show(t, st[0].FS(), "f"); got != "f=one" {
		t.Errorf("a second volume of the state shows %s; want f=one", got)
	}
}

// A state's description names the cut, what landed of each item, and the
// tree the next boot finds.
func TestStateString(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "data", false)
	st := states(t, fsys)
	var all string
	for _, s := range st {
		all += s.String()
	}
	for _, want := range []string{
		"cut after op 2 of 2 (write f)",
		"./ (#1): 0 of 1 folder ops landed",
		"./ (#1): 1 of 1 folder ops landed (last: create f)",
		"f (#2): 1 of 1 writes landed",
		`f "data"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the descriptions miss %q:\n%s", want, all)
		}
	}
}

// A state's description shows a name held twice twice, marking the entry
// that lookups do not find, and says where the new entry landed.
func TestStateStringShowsAnEntryBehind(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{ExFAT: true})
	put(t, fsys, "log", "old", true)
	put(t, fsys, "tmp", "newer", true)
	syncDir(t, fsys, ".")
	if err := fsys.Rename("tmp", "log"); err != nil {
		t.Fatal(err)
	}
	var all string
	for _, s := range states(t, fsys) {
		all += s.String()
	}
	for _, want := range []string{
		"    log \"old\"\n    log \"newer\" (listed, behind the entry lookups find)\n",
		"    log \"newer\"\n    log \"old\" (listed, behind the entry lookups find)\n",
		"only the new entry log (#3), the new entry in a free slot ahead of its name's other entry",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the descriptions miss %q:\n%s", want, all)
		}
	}
}
