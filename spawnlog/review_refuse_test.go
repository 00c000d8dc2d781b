package spawnlog

import (
	"errors"
	"testing"
)

// TestFastPathRefusesWhatExactRefuses: documents that are not JSON, or not
// a spawn-log, in ways each of the fast path's checks alone stands between
// them and a wrong "ok" (a key cut short at the end of the data, a control
// character in a key, a record whose '}' is missing before the array's ']',
// an unknown field's value cut short, the object's own '}' missing):
// Parse refuses each with the exact parser's error, and neither scan mode
// takes it.
func TestFastPathRefusesWhatExactRefuses(t *testing.T) {
	for _, doc := range []string{
		`{"`,
		"{\"version\x18:1,\"nextId\":0,\"records\":[]}",
		`{"version":1,"nextId":2,"records":[{"id":1]}`,
		`{"version":1,"nextId":2,"records":[]`,
		`{"version":1,"nextId":2,"records":[{"id":1,"x":[1,}]}`,
	} {
		_, exactErr := parseExact("s", []byte(doc))
		if exactErr == nil {
			t.Fatalf("%q: parseExact takes it; the case tests nothing", doc)
		}
		if _, err := Parse("s", []byte(doc)); !errors.Is(err, ErrCorrupt) || err.Error() != exactErr.Error() {
			t.Errorf("%q: Parse = %v; want parseExact's %v", doc, err, exactErr)
		}
		for _, collect := range []bool{true, false} {
			if s, ok := scan([]byte(doc), collect); ok {
				t.Errorf("%q: scan (collect %v) takes it: %+v", doc, collect, s)
			}
		}
	}
}

// TestParseKeepsEachRecordsBytesCapped: each record's bytes kept for a
// rewrite are a slice of the data with no capacity past the record, so that
// nothing appending to one could write over the next record's bytes.
func TestParseKeepsEachRecordsBytesCapped(t *testing.T) {
	data := canonical()[3].encode()
	l, err := Parse("s", data)
	if err != nil || len(l.raw) != 3 {
		t.Fatalf("Parse = %d records, %v", len(l.raw), err)
	}
	for i, raw := range l.raw {
		if cap(raw) != len(raw) {
			t.Errorf("record %d: %d bytes with capacity %d", i, len(raw), cap(raw))
		}
	}
}
