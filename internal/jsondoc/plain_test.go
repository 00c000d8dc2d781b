package jsondoc

import (
	"errors"
	"testing"
)

// TestTrailingNonJSONSpaceIsCorruptLog: after the object only JSON whitespace
// (space, tab, newline, carriage return) may follow; a vertical tab, a form
// feed or a Unicode space is data after the object, as encoding/json and
// JSON.parse say.
func TestTrailingNonJSONSpaceIsCorruptLog(t *testing.T) {
	doc := `{"version": 1, "nextId": 2, "records": [{"id": 1}]}`
	if _, err := parseLog("s", []byte(doc+" \t\r\n")); err != nil {
		t.Fatalf("Parse with JSON whitespace after the object: %v", err)
	}
	for _, tr := range []string{"\v", "\f", "\u00a0", "\u0085", "\u2028", "\u3000"} {
		if _, err := parseLog("s", []byte(doc+tr)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Parse with %q after the object = %v; want a CorruptError (data after the object)", tr, err)
		}
	}
}

// TestTrailingNonJSONSpaceIsCorruptBoard: after the object only JSON whitespace
// (space, tab, newline, carriage return) may follow; a vertical tab, a form
// feed or a Unicode space is data after the object, as encoding/json and
// JSON.parse say.
func TestTrailingNonJSONSpaceIsCorruptBoard(t *testing.T) {
	doc := `{"version": 1, "items": [{"dispatchId": 1}]}`
	if _, err := parseBoard("s", []byte(doc+" \t\r\n")); err != nil {
		t.Fatalf("Parse with JSON whitespace after the object: %v", err)
	}
	for _, tr := range []string{"\v", "\f", "\u00a0", "\u0085", "\u2028", "\u3000"} {
		if _, err := parseBoard("s", []byte(doc+tr)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Parse with %q after the object = %v; want a CorruptError (data after the object)", tr, err)
		}
	}
}
