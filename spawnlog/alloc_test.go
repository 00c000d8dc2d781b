package spawnlog

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The fast scan of an append (collect false) allocates nothing on a log
// too small to be split: neither its Scanner nor what it takes of the
// records escapes to the heap through jsonscan's readers (Elems.Next,
// Scanner.Object, which takes a closure).
func TestScanAllocatesNothing(t *testing.T) {
	data := benchLog(50)
	if n := testing.AllocsPerRun(20, func() {
		if s, ok := scan(data, false); !ok || s.N != 50 {
			t.Fatalf("scan = %+v, %v", s, ok)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times; want none", n)
	}
}

// Nor on a log read key by key (compacted: no record is laid out as encode
// writes it): the values of its strings are checked, not kept.
func TestScanByKeyAllocatesNothing(t *testing.T) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchLog(50)); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if n := testing.AllocsPerRun(20, func() {
		if s, ok := scan(data, false); !ok || s.N != 50 {
			t.Fatalf("scan = %+v, %v", s, ok)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times; want none", n)
	}
}
