package jsondoc

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// Extend onto a board encode wrote is byte for byte what encode writes
// with the items added, in the order given (none, one, several; titles
// with <, > and &, which json escapes; an empty items array; many items),
// and the old items are the bytes read, in place, not a copy.
func TestExtendIsEncodeBoard(t *testing.T) {
	news := []Item{
		{DispatchID: 1001, Title: "a <b> & c", AddedAt: "2026-11-29T15:42:59.123Z"},
		{DispatchID: 1000, Title: "", AddedAt: "\u2029\x7f"},
		{DispatchID: 1002, Title: "z", AddedAt: "2026-11-29T15:43:00.000Z"},
	}
	for i, b := range canonicalBoard() {
		data := b.encode()
		d, err := Parse(boardFormat, "b", data)
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(news) + 1 {
			want := Board{Items: slices.Clone(b.Items), raw: slices.Clone(b.raw)}
			for _, it := range news[:n] {
				want.add(it)
			}
			parts := Extend(boardFormat, d, news[:n], 0, encodeBoard)
			if got := bytes.Join(parts, nil); !bytes.Equal(got, want.encode()) {
				t.Errorf("board %d, %d added: Extend writes\n%s\nencode writes\n%s", i, n, got, want.encode())
			}
			for j, raw := range d.Raw {
				if p := parts[1+2*j]; &p[0] != &raw[0] || len(p) != len(raw) {
					t.Errorf("board %d, %d added: item %d is not the bytes read, in place", i, n, j)
				}
			}
		}
	}
}

// Extend onto a log encode wrote is what encode writes with the records
// added and the header's next integer given.
func TestExtendIsEncodeLog(t *testing.T) {
	news := []Record{
		{ID: 100, Agent: "demo", Title: "a <b> & c", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 9, Hostname: "h"},
		{ID: 101, Hostname: "\u2029\x7f"},
	}
	for i, l := range canonicalLog() {
		d, err := Parse(logFormat, "l", l.encode())
		if err != nil {
			t.Fatal(err)
		}
		want := Log{NextID: 102, raw: slices.Clone(l.raw)}
		for _, r := range news {
			raw, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			want.raw = append(want.raw, raw)
		}
		if got := bytes.Join(Extend(logFormat, d, news, 102, encodeLog), nil); !bytes.Equal(got, want.encode()) {
			t.Errorf("log %d: Extend writes\n%s\nencode writes\n%s", i, got, want.encode())
		}
	}
}

// Extend onto a board that is not in encode's layout (read by the plain
// path: unknown fields, odd white space, a key in another case) keeps each
// old item's bytes verbatim, in their order, then the new ones; the result
// parses as the old items and the new.
func TestExtendKeepsOddItemsVerbatim(t *testing.T) {
	items := []string{`{"dispatchId":7,"title":"by hand","future":{"x":[1, 2]}}`, `{"DispatchId" : 3}`, `{ "dispatchId":8 ,"addedAt":null}`}
	data := []byte("{\"items\":[" + items[0] + ",  " + items[1] + ",\n" + items[2] + "], \"version\":1}")
	d, err := Parse(boardFormat, "b", data)
	if err != nil {
		t.Fatal(err)
	}
	news := []Item{{DispatchID: 2, Title: "new"}, {DispatchID: 1, Title: "newer"}}
	got := bytes.Join(Extend(boardFormat, d, news, 0, encodeBoard), nil)
	again, err := Parse(boardFormat, "b", got)
	if err != nil {
		t.Fatalf("Extend writes\n%s\nwhich does not parse: %v", got, err)
	}
	if want := append(slices.Clone(d.Elems), news...); !slices.Equal(again.Elems, want) {
		t.Errorf("Extend writes items %+v; want %+v", again.Elems, want)
	}
	for i, it := range items {
		if string(again.Raw[i]) != it {
			t.Errorf("item %d written as %q; want %q, verbatim", i, again.Raw[i], it)
		}
	}
}

// With no element at all, Extend writes encode's empty document.
func TestExtendOfNothingIsEncode(t *testing.T) {
	got := bytes.Join(Extend(boardFormat, Doc[Item]{}, nil, 0, encodeBoard), nil)
	if want := encodeBoard(Doc[Item]{}); !bytes.Equal(got, want) {
		t.Errorf("Extend writes %q; want %q", got, want)
	}
	got = bytes.Join(Extend(logFormat, Doc[Record]{}, nil, 4, encodeLog), nil)
	if want := encodeLog(Doc[Record]{Next: 4}); !bytes.Equal(got, want) {
		t.Errorf("Extend writes %q; want %q", got, want)
	}
}
