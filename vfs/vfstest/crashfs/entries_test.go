package crashfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
)

// Removing a name held twice drops the entry lookups find: the other is
// found then, and a second remove takes the name away.
func TestRemoveOfADoubledNameShowsTheOther(t *testing.T) {
	for _, newFirst := range []bool{false, true} {
		first, other := order(newFirst)
		next := doubled(t, ".", newFirst)
		if err := next.Remove("log"); err != nil {
			t.Fatal(err)
		}
		if got, want := rootAndLog(t)(next), fmt.Sprintf("[log:%d] log=%s", len(other), other); got != want {
			t.Errorf("log held as %s then %s, removed once: %s; want %s", first, other, got, want)
		}
		if err := next.Remove("log"); err != nil {
			t.Fatal(err)
		}
		if got := rootAndLog(t)(next); got != "[] log=-" {
			t.Errorf("log held twice, removed twice: %s; want [] log=-", got)
		}
	}
}

// A rename over a name held twice replaces the entry lookups find, and the
// new entry goes behind the other: lookups find the other, the listing
// shows the name twice still, and a cut with everything landed shows the
// same. RenameNoReplace refuses the name.
func TestRenameOverADoubledNameGoesBehindTheOther(t *testing.T) {
	for _, newFirst := range []bool{false, true} {
		first, other := order(newFirst)
		next := doubled(t, ".", newFirst)
		put(t, next, "x", "x!", true)
		if err := next.RenameNoReplace("x", "log"); !errors.Is(err, fs.ErrExist) {
			t.Errorf("RenameNoReplace onto log held twice = %v; want EEXIST", err)
		}
		if err := next.Rename("x", "log"); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("[log:%d log:2] log=%s", len(other), other)
		if got := rootAndLog(t)(next); got != want {
			t.Errorf("log held as %s then %s, x renamed over it: %s; want %s", first, other, got, want)
		}
		if got := outcomes(t, next, rootAndLog(t)); !slices.Contains(got, want) {
			t.Errorf("no state of a cut after the rename shows the live view %s:\n  %v", want, got)
		}
	}
}

// A rename of a name held twice to another name moves the entry lookups
// find; the name then leads to the other.
func TestRenameOfADoubledNameMovesTheFoundEntry(t *testing.T) {
	for _, newFirst := range []bool{false, true} {
		first, other := order(newFirst)
		next := doubled(t, ".", newFirst)
		if err := next.Rename("log", "moved"); err != nil {
			t.Fatal(err)
		}
		got := listing(t, next, ".") + " " + show(t, next, "log", "moved")
		want := fmt.Sprintf("[log:%d moved:%d] log=%s moved=%s", len(other), len(first), other, first)
		if got != want {
			t.Errorf("log held as %s then %s, renamed to moved: %s; want %s", first, other, got, want)
		}
	}
}
