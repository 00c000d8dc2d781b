package spawnlog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// TestSplitPastTheSplitIsNoEnd: where the layout between two records is
// inside a record (an array of objects in a field this version does not
// know) and the document is cut short there, the first half reads that
// record past the split, and must not take that as ending at it: the second
// half, starting inside the record, would read its nested objects as
// records and its closers as the array's and the document's end, taking a
// document that one reader (and encoding/json) refuses as cut short.
func TestSplitPastTheSplitIsNoEnd(t *testing.T) {
	nested := `"later": [{"id": 5}` + recordSep + `{"id": 6}]}`
	doc := `{"version": 1, "nextId": 2, "records": [{"id": 1, "pad": "` + strings.Repeat("x", 200) + `", ` + nested
	data := []byte(doc) // cut short: the records' ']' and the object's '}' are missing
	if _, err := parseExact("s", data); err == nil {
		t.Fatal("parseExact takes the cut-short document: the test does not test the split")
	}
	if _, ok := scanSplit(data, false, len(data)+1); ok {
		t.Fatal("one reader takes the cut-short document")
	}
	if s, ok := scanSplit(data, false, 0); ok {
		t.Fatalf("the scan split in two halves takes the cut-short document: %+v", s)
	}
}

// TestRecordRunStopsAtTheSplit pins scanRecordRun's contract with a stop
// (the first half of a split read): a record that goes past stop ends the
// run there, not ok, without reading the records after it (the second
// half reads them: nothing is read twice); and the array's ']' met before
// stop is not ok either (the first half never reads the array's end).
func TestRecordRunStopsAtTheSplit(t *testing.T) {
	data := []byte(`[{"id": 1, "title": "a"}, {"id": 2}, {"id": 3}]`)
	first := len(`[{"id": 1, "title": "a"}`)
	for _, stop := range []int{3, first - 1} { // inside the first record
		s := jsonscan.Scanner{Data: data, Pos: 1}
		var e jsonscan.Elems
		var rs records
		if ended, ok := scanRecordRun(&s, &e, &rs, stop); ended || ok || s.Pos != first {
			t.Errorf("stop %d inside the first record: ended %v, ok %v at %d; want neither, at %d (the first record's end)", stop, ended, ok, s.Pos, first)
		}
	}
	s := jsonscan.Scanner{Data: data, Pos: 1}
	var e jsonscan.Elems
	var rs records
	if ended, ok := scanRecordRun(&s, &e, &rs, len(data)+10); ended || ok {
		t.Errorf("stop past the array's end: ended %v, ok %v; want neither", ended, ok)
	}
	s = jsonscan.Scanner{Data: data, Pos: 1}
	e, rs = jsonscan.Elems{}, records{}
	if ended, ok := scanRecordRun(&s, &e, &rs, first); !ended || !ok || e.N != 1 || s.Pos != first {
		t.Errorf("stop at the first record's end: ended %v, ok %v, %d records at %d; want ended there with one", ended, ok, e.N, s.Pos)
	}
}

// TestScanSplitJoinsTheLargestID: the largest id may be in either half of
// a split read (ids need not grow along the log, and the file's nextId may
// be below them): the next id is above it either way.
func TestScanSplitJoinsTheLargestID(t *testing.T) {
	data := benchLog(2000)
	for _, at := range []int{0, len(data) - 400} { // a record in the first half, one in the second
		odd := bytes.Clone(data)
		i := at + bytes.Index(odd[at:], []byte(`"id": `)) + len(`"id": `)
		j := i + bytes.IndexByte(odd[i:], ',')
		odd = append(append(odd[:i:i], "999999"...), odd[j:]...)
		one, oneOK := scanSplit(odd, false, len(odd)+1)
		two, twoOK := scanSplit(odd, false, 0)
		if !oneOK || one.nextID != 1000000 || !twoOK || two.nextID != one.nextID {
			t.Errorf("id 999999 at %d: two halves give next id %d (%v); one reader %d (%v); want 1000000", i, two.nextID, twoOK, one.nextID, oneOK)
		}
	}
}
