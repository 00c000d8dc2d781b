package board

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// TestSplitPastTheSplitIsNoEnd: where the layout between two items is
// inside an item (an array of objects in a field this version does not
// know) and the board is cut short there, the first half reads that item
// past the split, and must not take that as ending at it: the second half,
// starting inside the item, would read its nested objects as items and its
// closers as the array's and the board's end, taking a board that one
// reader (and encoding/json) refuses as cut short.
func TestSplitPastTheSplitIsNoEnd(t *testing.T) {
	nested := `"later": [{"dispatchId": 5}` + itemSep + `{"dispatchId": 6}]}`
	data := []byte(`{"version": 1, "items": [{"dispatchId": 1, "pad": "` + strings.Repeat("x", 200) + `", ` + nested)
	if _, err := parseExact("b", data); err == nil {
		t.Fatal("parseExact takes the cut-short board: the test does not test the split")
	}
	if _, ok := scanSplit(data, false, 6, len(data)+1); ok {
		t.Fatal("one reader takes the cut-short board")
	}
	if s, ok := scanSplit(data, false, 6, 0); ok {
		t.Fatalf("the scan split in two halves takes the cut-short board: %+v", s)
	}
}

// TestScanSplitJoinsFound: the item looked for may be in either half of a
// split read: found says so either way.
func TestScanSplitJoinsFound(t *testing.T) {
	data := benchBoard(2000)
	for _, find := range []int{1, 2000} { // the first item, the last
		one, oneOK := scanSplit(data, false, find, len(data)+1)
		two, twoOK := scanSplit(data, false, find, 0)
		if !oneOK || !one.found || !twoOK || !two.found {
			t.Errorf("find %d: two halves found %v (%v); one reader %v (%v); want found", find, two.found, twoOK, one.found, oneOK)
		}
	}
}

// TestItemRunStopsAtTheSplit pins scanItemRun's contract with a stop (the
// first half of a split read): an item that goes past stop ends the run
// there, not ok, without reading the items after it (the second half reads
// them: nothing is read twice); and the array's ']' met before stop is not
// ok either (the first half never reads the array's end).
func TestItemRunStopsAtTheSplit(t *testing.T) {
	data := []byte(`[{"dispatchId": 1, "title": "a"}, {"dispatchId": 2}, {"dispatchId": 3}]`)
	first := len(`[{"dispatchId": 1, "title": "a"}`)
	for _, stop := range []int{3, first - 1} { // inside the first item
		s := jsonscan.Scanner{Data: data, Pos: 1}
		var e jsonscan.Elems
		var is items
		if ended, ok := scanItemRun(&s, &e, &is, stop); ended || ok || s.Pos != first {
			t.Errorf("stop %d inside the first item: ended %v, ok %v at %d; want neither, at %d (the first item's end)", stop, ended, ok, s.Pos, first)
		}
	}
	s := jsonscan.Scanner{Data: data, Pos: 1}
	var e jsonscan.Elems
	var is items
	if ended, ok := scanItemRun(&s, &e, &is, len(data)+10); ended || ok {
		t.Errorf("stop past the array's end: ended %v, ok %v; want neither", ended, ok)
	}
	s = jsonscan.Scanner{Data: data, Pos: 1}
	e, is = jsonscan.Elems{}, items{}
	if ended, ok := scanItemRun(&s, &e, &is, first); !ended || !ok || e.N != 1 || s.Pos != first {
		t.Errorf("stop at the first item's end: ended %v, ok %v, %d items at %d; want ended there with one", ended, ok, e.N, s.Pos)
	}
}
