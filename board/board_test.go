package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/internal/fuzzseed"

	"github.com/pa-toolkit/pa/internal/jsondoc"
)

// FuzzParse: whatever bytes a board holds, Parse never panics; it refuses
// with a *CorruptError whose message is one printable line, or it accepts a
// board that its own encoding gives back whole.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"items":[{"dispatchId":1,"title":"t","addedAt":"2026-11-29T15:42:59.123Z"},{"dispatchId":2,"extra":[1]}]}`,
		`{"version":1,"items":[]}`, `{"version":2,"items":[]}`, `{"version":1}`, `{"items":[]}`,
		`{"version":1,"items":[{"dispatchId":0}]}`, `{"version":1,"items":[{"dispatchId":1e3}]}`,
		`{"version":1,"items":[],"x\u0007":1}`, `{"version":1,"items":[]} {}`,
	} {
		f.Add([]byte(seed))
	}
	for _, seed := range fuzzseed.Hostile {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse("agents/a/board/board.json", data)
		if err != nil {
			var ce *CorruptError
			if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Parse(%q) = %v (%T); want a *CorruptError", data, err, err)
			}
			if msg := err.Error(); !fuzzseed.Printable(msg) {
				t.Fatalf("Parse(%q): the message %q is not one printable line", data, msg)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Parse(%q) accepted what is not JSON", data)
		}
		for _, it := range b.Items {
			if it.DispatchID < 1 {
				t.Fatalf("Parse(%q): item with dispatch id %d", data, it.DispatchID)
			}
		}
		again, err := Parse("again", b.encode())
		if err != nil || !slices.Equal(again.Items, b.Items) {
			t.Fatalf("Parse(%q) = %+v, whose encoding parses as %+v, %v", data, b, again, err)
		}
	})
}

// TestAddIsEncode: an item added by the splice onto a board encode wrote
// (jsondoc's fast path, as `pa dispatch open` adds it) is byte for byte
// what encode writes for the board with the item, and an item already on
// the board leaves its bytes as they are.
func TestAddIsEncode(t *testing.T) {
	items := []Item{
		{DispatchID: 1, Title: "first", AddedAt: "2026-11-29T15:42:59.123Z"},
		{DispatchID: 2, Title: "<b>fish & chips</b>", AddedAt: "2026-11-29T15:43:00.000Z"},
		{DispatchID: 9, Title: "line\nbreak \"quoted\" \\ \u2028 \x01 \u00e9 \U0001F600", AddedAt: "\u2029\x7f"},
	}
	var data []byte
	exists := false
	var want Board
	for i, it := range items {
		ed, err := jsondoc.Prepare(format, "b", data, exists, it.DispatchID)
		if err != nil {
			t.Fatal(err)
		}
		got := bytes.Join(ed.Append(it, 0, encodeDoc), nil)
		raw, err := json.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		want.raw = append(want.raw, raw)
		if !bytes.Equal(got, want.encode()) {
			t.Fatalf("add %d: the splice writes\n%s\nencode writes\n%s", i, got, want.encode())
		}
		data, exists = got, true
	}
	ed, err := jsondoc.Prepare(format, "b", data, true, 2)
	if err != nil {
		t.Fatal(err)
	}
	if again := bytes.Join(ed.Append(items[1], 0, encodeDoc), nil); !bytes.Equal(again, data) {
		t.Errorf("adding an item on the board already writes\n%s\nwant\n%s", again, data)
	}
}

// Extend adds the items after the board's own, in the order given, leaving
// out a dispatch on the board already or given twice: each old item keeps
// its bytes (its unknown fields too), and onto a board encode wrote the
// result is encode's with the items added.
func TestExtend(t *testing.T) {
	odd := `{"dispatchId":7,"title":"by hand","future":{"x":[1, 2]}}`
	b, err := Parse("b", []byte(`{"version":1,"items":[`+odd+`,  {"dispatchId":8}]}`))
	if err != nil {
		t.Fatal(err)
	}
	adds := []Item{{DispatchID: 3, Title: "three"}, {DispatchID: 8, Title: "on it already"}, {DispatchID: 1, Title: "one"}, {DispatchID: 3, Title: "twice"}}
	got, err := Parse("b", bytes.Join(b.Extend(adds...), nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{b.Items[0], b.Items[1], adds[0], adds[2]}
	if !slices.Equal(got.Items, want) || string(got.raw[0]) != odd || string(got.raw[1]) != `{"dispatchId":8}` {
		t.Errorf("Extend gives items %+v (the first two as %q); want %+v, the first two verbatim", got.Items, got.raw[:2], want)
	}

	var enc Board
	for _, it := range adds[:1] {
		raw, _ := json.Marshal(it)
		enc.raw = append(enc.raw, raw)
	}
	read, err := Parse("b", enc.encode())
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(adds[2])
	enc.raw = append(enc.raw, raw)
	if got := bytes.Join(read.Extend(adds[2]), nil); !bytes.Equal(got, enc.encode()) {
		t.Errorf("Extend onto an encoded board writes\n%s\nencode writes\n%s", got, enc.encode())
	}
	if got := bytes.Join(read.Extend(), nil); !bytes.Equal(got, encode(read.raw)) {
		t.Errorf("Extend of nothing writes\n%s\nwant the board as it is", got)
	}
}
