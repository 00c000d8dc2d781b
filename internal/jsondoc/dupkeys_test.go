package jsondoc

import (
	"errors"
	"testing"
)

// A document whose top level holds one of its keys twice (exactly, or
// spelled otherwise but matched to the same field) is refused with a
// *DuplicateKeyError naming the key and both spellings: encoding/json
// would keep the last, and a rewrite would drop the first array's
// elements. The fast path leaves every such document to the plain path,
// and Parse refuses it too. A duplicate inside an element is kept as
// encoding/json reads it: its bytes are rewritten as they were.
func TestTopLevelDuplicateKeyRefused(t *testing.T) {
	for _, tc := range []struct {
		doc                string
		key, first, second string
		board              bool
	}{
		{`{"version":1,"nextId":2,"records":[{"id":1}],"records":[]}`, "records", "records", "records", false},
		{`{"version":1,"nextId":2,"records":[{"id":1}],"Records":[]}`, "records", "records", "Records", false},
		{"{\"version\":1,\"nextId\":2,\"records\":[{\"id\":1}],\"recordſ\":[]}", "records", "records", "recordſ", false},
		{`{"version":1,"nextId":2,"nextId":3,"records":[]}`, "nextId", "nextId", "nextId", false},
		{`{"VERSION":1,"version":1,"nextId":2,"records":[]}`, "version", "VERSION", "version", false},
		{`{"version":1,"items":[{"dispatchId":1}],"items":[]}`, "items", "items", "items", true},
	} {
		var err error
		if tc.board {
			_, err = parseExactBoard("x", []byte(tc.doc))
			if _, perr := parseBoard("x", []byte(tc.doc)); perr == nil {
				t.Errorf("%q: Parse took it", tc.doc)
			}
		} else {
			_, err = parseExactLog("x", []byte(tc.doc))
			if _, perr := parseLog("x", []byte(tc.doc)); perr == nil {
				t.Errorf("%q: Parse took it", tc.doc)
			}
		}
		var de *DuplicateKeyError
		if !errors.As(err, &de) || de.Key != tc.key || de.First != tc.first || de.Second != tc.second {
			t.Errorf("%q: %v; want the key %q twice, as %q and %q", tc.doc, err, tc.key, tc.first, tc.second)
		}
	}
	for _, doc := range []string{
		`{"version":1,"nextId":2,"records":[{"id":1,"id":1}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1,"x":{"records":1,"records":2}}]}`,
	} {
		if _, err := parseExactLog("x", []byte(doc)); err != nil {
			t.Errorf("%q: %v; want a duplicate below the top level taken", doc, err)
		}
	}
}

// The error names the key once when both spellings are the same, and both
// spellings otherwise.
func TestDuplicateKeyErrorWords(t *testing.T) {
	same := &DuplicateKeyError{Key: "records", First: "records", Second: "records"}
	if got, want := same.Error(), `the key "records" appears twice at the top level; a rewrite would keep only the last`; got != want {
		t.Errorf("%q; want %q", got, want)
	}
	other := &DuplicateKeyError{Key: "records", First: "records", Second: "Records"}
	if got, want := other.Error(), `the key "records" appears twice at the top level (as "records" and "Records"); a rewrite would keep only the last`; got != want {
		t.Errorf("%q; want %q", got, want)
	}
}
