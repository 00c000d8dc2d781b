package crashfs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// CutAt takes n from 0 to Ops() and refuses any other.
func TestCutAtRange(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "x", true)
	for _, n := range []int{-1, fsys.Ops() + 1} {
		if _, err := fsys.CutAt(n); err == nil {
			t.Errorf("CutAt(%d) of a run of %d ops succeeded", n, fsys.Ops())
		}
	}
	cut, err := fsys.CutAt(0)
	if err != nil {
		t.Fatal(err)
	}
	if st := cut.States(nil, 0); len(st) != 1 || show(t, st[0].FS(), "f") != "f=-" {
		t.Errorf("the cut before the first op has states %v; want the empty volume alone", st)
	}
}

// A cut after op n shows nothing of the ops after it: the log is replayed
// to n.
func TestCutAtAnEarlierOp(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "f", "one", true) // create, write, fsync
	syncDir(t, fsys, ".")
	at := fsys.Ops()
	appendTo(t, fsys, "f", "two", true)
	cut, err := fsys.CutAt(at)
	if err != nil {
		t.Fatal(err)
	}
	if st := cut.States(rand.New(rand.NewPCG(1, 1)), 50); len(st) != 1 || show(t, st[0].FS(), "f") != "f=one" {
		t.Errorf("the cut after op %d (%s) has %d states, the first %q; want f=one alone", at, fsys.Op(at), len(st), show(t, st[0].FS(), "f"))
	}
	if cut.After() != at {
		t.Errorf("After() = %d; want %d", cut.After(), at)
	}
}

// The extremes are nothing landed, everything landed and each item's
// choices alone over either; the combinations beyond come from the
// samples, the same for the same seed.
func TestStatesExtremesAndSamples(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	dirs := []string{"a", "b", "c", "d"}
	for _, d := range dirs {
		if err := fsys.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	syncDir(t, fsys, ".")
	for _, d := range dirs {
		put(t, fsys, d+"/f", "", true)
	}
	cut, err := fsys.CutAt(fsys.Ops())
	if err != nil {
		t.Fatal(err)
	}
	if cut.Items() != 4 {
		t.Fatalf("Items() = %d; want 4 folders with a pending create", cut.Items())
	}
	if n := len(cut.States(nil, 0)); n != 10 {
		t.Errorf("the extremes of 4 independent folders are %d states; want 10 (none, all, 4 alone over none, 4 alone over all)", n)
	}
	describe := func(seed uint64) []string {
		var out []string
		for _, st := range cut.States(rand.New(rand.NewPCG(seed, 0)), 200) {
			out = append(out, fmt.Sprint(st))
		}
		return out
	}
	got := describe(7)
	if len(got) != 16 {
		t.Errorf("with 200 samples the 4 folders show %d states; want all 16", len(got))
	}
	if !slices.Equal(got, describe(7)) {
		t.Error("two enumerations from one seed differ")
	}
	if first := got[0]; !slices.Contains([]string{first}, fmt.Sprint(cut.States(nil, 0)[0])) {
		t.Errorf("the first state is not nothing landed:\n%s", first)
	}
}

// Cuts and their states may be taken while other goroutines go on with the
// run, and states of one cut built on several goroutines at once: each cut
// sees the run up to its op.
func TestCutsWhileTheRunGoesOn(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{})
	syncDir(t, fsys, ".")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 5 {
				name := fmt.Sprintf("g%d-%d", g, i)
				if err := vfs.WriteFileExclusive(fsys, name, []byte(name), 0o644, true); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range 10 {
		n := fsys.Ops()
		cut, err := fsys.CutAt(n)
		if err != nil {
			t.Fatal(err)
		}
		var inner sync.WaitGroup
		for range 2 {
			inner.Go(func() {
				for _, st := range cut.States(rand.New(rand.NewPCG(uint64(n), 0)), 5) {
					if st.FS().Ops() != 0 {
						t.Error("a state's volume has ops")
					}
				}
			})
		}
		inner.Wait()
	}
	wg.Wait()
	if want := 1 + 4*5*3; fsys.Ops() != want {
		t.Errorf("Ops() = %d; want %d (a folder sync, then create, write, fsync of 20 files)", fsys.Ops(), want)
	}
}

// An exFAT rename over a name, cut once its new entry landed and before
// the replaced entry's removal did, leaves the name twice, in either
// order: the new entry after the replaced one, or ahead of it in a free
// slot. The next boot lists both entries and opens the first.
func TestExFATRenameCutLeavesANameTwiceInBothOrders(t *testing.T) {
	fsys := crashfs.New(crashfs.Options{ExFAT: true})
	put(t, fsys, "log", "old", true)
	put(t, fsys, "tmp", "newer", true)
	syncDir(t, fsys, ".")
	if err := fsys.Rename("tmp", "log"); err != nil {
		t.Fatal(err)
	}
	wantRendered(t, fsys, []string{
		"[log:3 tmp:5] log=old",         // nothing landed
		"[log:3 log:5 tmp:5] log=old",   // the new entry, behind the old
		"[log:5 log:3 tmp:5] log=newer", // the new entry, ahead of the old
		"[log:3] log=old",               // the old entry's removal
		"[log:3 log:5] log=old",         // both of those, the new behind
		"[log:5 log:3] log=newer",       // both of those, the new ahead
		"[tmp:5] log=-",                 // the replaced entry's removal
		"[log:5 tmp:5] log=newer",       // the new entry and that removal
		"[] log=-",                      // both removals
		"[log:5] log=newer",             // all of it
	}, func(next vfs.FS) string { return listing(t, next, ".") + " " + show(t, next, "log") })
}
