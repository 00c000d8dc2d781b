package board

import (
	"errors"
	"testing"
)

// TestFastPathRefusesWhatExactRefuses: boards that are not JSON in ways
// one check of the fast path alone stands between them and a wrong "ok"
// (an item whose '}' is missing before the array's ']', an unknown field's
// value cut short, the object's own '}' missing): Parse refuses each
// with the exact parser's error, and neither scan mode takes it.
func TestFastPathRefusesWhatExactRefuses(t *testing.T) {
	for _, doc := range []string{
		`{"version":1,"items":[{"dispatchId":1]}`,
		`{"version":1,"items":[{"dispatchId":1,"title":"a"]}`,
		`{"version":1,"items":[{"dispatchId":1,"x":[1,}]}`,
		`{"version":1,"items":[]`,
	} {
		_, exactErr := parseExact("b", []byte(doc))
		if exactErr == nil {
			t.Fatalf("%q: parseExact takes it; the case tests nothing", doc)
		}
		if _, err := Parse("b", []byte(doc)); !errors.Is(err, ErrCorrupt) || err.Error() != exactErr.Error() {
			t.Errorf("%q: Parse = %v; want parseExact's %v", doc, err, exactErr)
		}
		for _, collect := range []bool{true, false} {
			if s, ok := scan([]byte(doc), collect, 1); ok {
				t.Errorf("%q: scan (collect %v) takes it: %+v", doc, collect, s)
			}
		}
	}
}

// TestParseKeepsEachItemsBytesCapped: each item's bytes kept for a rewrite
// are a slice of the data with no capacity past the item, so that nothing
// appending to one could write over the next item's bytes.
func TestParseKeepsEachItemsBytesCapped(t *testing.T) {
	data := canonical()[3].encode()
	b, err := Parse("b", data)
	if err != nil || len(b.raw) != 3 {
		t.Fatalf("Parse = %d items, %v", len(b.raw), err)
	}
	for i, raw := range b.raw {
		if cap(raw) != len(raw) {
			t.Errorf("item %d: %d bytes with capacity %d", i, len(raw), cap(raw))
		}
	}
}
