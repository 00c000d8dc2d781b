package board

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// canonical are boards as pa writes them (encode): what the fast path must
// take, and the splice must continue byte for byte.
func canonical() []Board {
	items := []Item{
		{DispatchID: 1, Title: "first", AddedAt: "2026-11-29T15:42:59.123Z"},
		{DispatchID: 2, Title: "<b>fish & chips</b>", AddedAt: "2026-11-29T15:43:00.000Z"},
		{DispatchID: 9, Title: "line\nbreak \"quoted\" \\ \u2028 \x01 \u00e9 \U0001F600", AddedAt: ""},
	}
	var boards []Board
	for n := range len(items) + 1 {
		var b Board
		for _, it := range items[:n] {
			b.add(it)
		}
		boards = append(boards, b)
	}
	var big Board
	for i := range 50 {
		big.add(Item{DispatchID: i + 1, Title: items[1].Title, AddedAt: items[1].AddedAt})
	}
	return append(boards, big)
}

// FuzzFastPath is the differential test of the board's fast path: on any
// bytes, Parse (the hand-written scan first) and parseExact (encoding/json
// alone) agree, on the error and its message too; whatever the scan takes,
// the exact parse takes with the same items, in both of the scan's modes
// (and found says whether an item has the id looked for); and the splice
// of a new item onto it reads back, exactly and fast, as those items and
// the new one.
// Its seeds are what encode writes and the hand-written edges of
// handSeeds.
func FuzzFastPath(f *testing.F) {
	for _, b := range canonical() {
		f.Add(b.encode())
	}
	for _, h := range handSeeds() {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "agents/a/board/board.json"
		exact, exactErr := parseExact(name, data)
		got, err := Parse(name, data)
		if (err == nil) != (exactErr == nil) || err != nil && err.Error() != exactErr.Error() {
			t.Fatalf("%q: Parse = %v; parseExact = %v", data, err, exactErr)
		}
		if err == nil {
			sameBoard(t, data, got, exact)
		}
		s, ok := scan(data, true, 0)
		find := 1
		if len(exact.Items) > 0 {
			find = exact.Items[len(exact.Items)-1].DispatchID
		}
		lean, leanOK := scan(data, false, find)
		if split, splitOK := scanSplit(data, false, find, 0); splitOK != leanOK || splitOK && !reflect.DeepEqual(split, lean) {
			t.Fatalf("%q: the scan split in two halves = %+v, %v; one reader %+v, %v", data, split, splitOK, lean, leanOK)
		}
		if ok != leanOK {
			t.Fatalf("%q: scan collecting says %v, without collecting %v", data, ok, leanOK)
		}
		if !ok {
			return
		}
		if exactErr != nil {
			t.Fatalf("%q: the fast path takes what parseExact refuses: %v", data, exactErr)
		}
		if lean.N != len(exact.Items) || lean.Start != s.Start || lean.End != s.End || lean.list != nil || lean.found != exact.Has(find) {
			t.Fatalf("%q: scan without collecting = %+v (find %d); collecting %+v; exact %+v", data, lean, find, s, exact)
		}
		if lean.N > 0 && (data[lean.Start] != '{' || data[lean.End-1] != '}') {
			t.Fatalf("%q: the items' bytes %q are not from the first '{' to the last '}'", data, data[lean.Start:lean.End])
		}
		it := Item{DispatchID: math.MaxInt32, Title: "<new> & \"one\"", AddedAt: "2026-11-29T15:42:59.123Z"}
		doc := bytes.Join(splice(data, lean, it), nil)
		back, err := parseExact("again", doc)
		if err != nil || !slices.Equal(back.Items, append(slices.Clone(exact.Items), it)) {
			t.Fatalf("%q: the splice %q reads back as %+v, %v; want the items and %+v", data, doc, back, err, it)
		}
		if again, ok := scan(doc, false, it.DispatchID); !ok || again.N != lean.N+1 || !again.found {
			t.Fatalf("%q: the splice %q is not taken by the fast path (%+v, %v)", data, doc, again, ok)
		}
	})
}

// sameBoard fails unless the two parses of data are the same board, each
// item's kept bytes included (compared compacted).
func sameBoard(t *testing.T, data []byte, got, want Board) {
	t.Helper()
	if !slices.Equal(got.Items, want.Items) || len(got.raw) != len(want.raw) {
		t.Fatalf("%q: Parse = %+v; parseExact = %+v", data, got, want)
	}
	for i := range got.raw {
		var a, b bytes.Buffer
		if json.Compact(&a, got.raw[i]) != nil || json.Compact(&b, want.raw[i]) != nil || a.String() != b.String() {
			t.Fatalf("%q: item %d kept as %q; parseExact keeps %q", data, i, got.raw[i], want.raw[i])
		}
	}
}

// The splice of a new item onto a board encode wrote is byte for byte what
// encode writes with the item added (titles with <, > and &, which json
// escapes, an empty items array, many items), and the old items are a
// slice of the bytes read, not a copy.
func TestSpliceIsEncode(t *testing.T) {
	news := []Item{
		{DispatchID: 1000, Title: "a <b> & c", AddedAt: "2026-11-29T15:42:59.123Z"},
		{DispatchID: 1001, Title: "", AddedAt: "\u2029\x7f"},
	}
	for i, b := range canonical() {
		data := b.encode()
		for _, it := range news {
			s, ok := scan(data, false, it.DispatchID)
			if !ok || s.found {
				t.Fatalf("board %d: the fast path does not take what encode wrote (%v, found %v):\n%s", i, ok, s.found, data)
			}
			next := Board{Items: slices.Clone(b.Items), raw: slices.Clone(b.raw)}
			next.add(it)
			parts := splice(data, s, it)
			if got := bytes.Join(parts, nil); !bytes.Equal(got, next.encode()) {
				t.Errorf("board %d: the splice writes\n%s\nencode writes\n%s", i, got, next.encode())
			}
			if s.N > 0 && (len(parts) != 3 || &parts[1][0] != &data[s.Start] || len(parts[1]) != s.End-s.Start) {
				t.Errorf("board %d: the old items are not the bytes read, in place", i)
			}
		}
	}
}

// Parse takes the common shape fast, and leaves to the exact parse what
// only it takes: each of these boards is accepted, by one path.
func TestFastPathTakesTheCommonShape(t *testing.T) {
	fast := []string{
		`{"version":1,"items":[{"dispatchId":1}]}`,
		" \r\n\t{ \"items\" : [ ] , \"version\" : 1 } \n",
		`{"version":1,"items":[{"dispatchId":3,"title":null,"x":[{"y":"\u00e9\n"},1e5,true,null],"addedAt":"\u00e9"}]}`,
		// Laid out as encode writes it up to a field it does not write:
		// read key by key from the item's start.
		"{\"version\":1,\"items\":[{\n      \"dispatchId\": 1,\n      \"title\": \"t\",\n      \"addedAt\": \"a\",\n      \"later\": 1\n    }]}",
	}
	slow := []string{
		`{"Version":1,"items":[{"dispatchId":1}]}`,                // a case variant
		`{"version":1,"items":[{"dispatchID":1}]}`,                // a case variant in an item
		`{"version":1,"items":[{"dispatchId":1,"dispatchId":2}]}`, // a duplicate
		`{"version":1,"items":[],"items":[{"dispatchId":1}]}`,     // a duplicate at the top
		"{\"version\":1,\"itemſ\":[{\"dispatchId\":1}]}",          // the long s folds to s
		`{"version":1,"items":[{"dispatch\u0049d":1}]}`,           // an escaped key
		`{"version":1,"items":[{"dispatchId":1,"title":"a","Title":"b"}]}`,
		`{"version":1,"items":[{"dispatchId":1,"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]}`,
	}
	for _, doc := range append(fast, slow...) {
		if _, err := parseExact("x", []byte(doc)); err != nil {
			t.Fatalf("%q: parseExact = %v; want it accepted", doc, err)
		}
		_, ok := scan([]byte(doc), false, 0)
		if wantFast := slices.Contains(fast, doc); ok != wantFast {
			t.Errorf("%q: the fast path takes it: %v; want %v", doc, ok, wantFast)
		}
	}
}

// The scan split in two halves read at once gives one reader's result on
// a large board (found too, in either half), refuses it, as one reader
// does, when a byte of either half is off, and falls back to one reader
// where the layout between two items is also inside an item.
func TestScanSplitIsOneReader(t *testing.T) {
	data := benchBoard(2000)
	for _, find := range []int{1, 1999, 2001} {
		one, ok := scanSplit(data, false, find, len(data)+1)
		if !ok || one.N != 2000 || one.found != (find <= 2000) {
			t.Fatalf("one reader: %+v, %v", one, ok)
		}
		if got, ok := scanSplit(data, false, find, 0); !ok || !reflect.DeepEqual(got, one) {
			t.Fatalf("two halves: %+v, %v; one reader %+v", got, ok, one)
		}
	}
	for _, at := range []int{len(data) / 4, len(data) * 3 / 4} {
		bad := bytes.Clone(data)
		i := at + bytes.Index(bad[at:], []byte(`"title": "`)) + len(`"title": "`)
		bad[i] = 0x01
		if got, ok := scanSplit(bad, false, 0, 0); ok {
			t.Fatalf("two halves took a control character at %d: %+v", i, got)
		}
	}
	mid := len(data) / 2
	nested := []byte("\"later\": [{\"a\": 1}" + itemSep + "{\"b\": 2}],\n      \"addedAt\": ")
	around := bytes.ReplaceAll(data[mid-3000:mid+3000], []byte(`"addedAt": `), nested)
	odd := append(append(bytes.Clone(data[:mid-3000]), around...), data[mid+3000:]...)
	at := jsonscan.Split(odd, bytes.IndexByte(odd, '[')+1, "}"+itemSep+"{")
	if !bytes.HasPrefix(odd[at:], []byte(itemSep+"{\"b\"")) {
		t.Fatalf("the split at %d is not inside an item (%q): the test does not test the fallback", at, odd[at:at+20])
	}
	want, wantOK := scanSplit(odd, false, 0, len(odd)+1)
	if got, ok := scanSplit(odd, false, 0, 0); !wantOK || !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("an item around the split: two halves %+v, %v; one reader %+v, %v", got, ok, want, wantOK)
	}
}
