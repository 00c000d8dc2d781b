package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/benchcpu"
	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// canonical are logs as pa writes them (encode): what the fast path must
// take, and the splice must continue byte for byte.
func canonicalLog() []Log {
	recs := []Record{
		{ID: 1, Agent: "demo", Title: "first", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 42, Hostname: "box"},
		{ID: 2, Agent: "demo", Title: "<b>fish & chips</b>", OpenedAt: "2026-11-29T15:43:00.000Z", PID: 43, Hostname: "box"},
		{ID: 5, Agent: "é", Title: "line\nbreak \"quoted\" \\ \u2028 \x01 \u00e9 \U0001F600", OpenedAt: "", PID: -1, Hostname: ""},
	}
	var logs []Log
	for n := range len(recs) + 1 {
		l := Log{NextID: 1}
		for _, r := range recs[:n] {
			l.NextID = r.ID
			if _, err := l.appendRecord(r); err != nil {
				panic(err)
			}
		}
		logs = append(logs, l)
	}
	big := Log{NextID: 7}
	for range 50 {
		if _, err := big.appendRecord(recs[1]); err != nil {
			panic(err)
		}
	}
	return append(logs, big)
}

// FuzzFastPathLog is the differential test of the fast path: on any bytes,
// Parse (the hand-written scan first) and parsePlain (encoding/json alone)
// agree, on the error and its message too; whatever the scan takes, the
// exact parse takes with the same next id and records, in both of the
// scan's modes; and the splice of an append onto it reads back, exactly and
// fast, as those records and the new one.
// Its seeds are what encode writes and the hand-written edges of
// seeds (seedsLog, seedsBoard).
func FuzzFastPathLog(f *testing.F) {
	for _, l := range canonicalLog() {
		f.Add(l.encode())
	}
	for _, h := range seedsLog() {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "agents/a/spawn-log.json"
		exact, exactErr := parseExactLog(name, data)
		got, err := parseLog(name, data)
		if (err == nil) != (exactErr == nil) || err != nil && err.Error() != exactErr.Error() {
			t.Fatalf("%q: Parse = %v; parsePlain = %v", data, err, exactErr)
		}
		if err == nil {
			sameLog(t, data, got, exact)
		}
		s, ok := scan(logFormat, data, true, 0)
		lean, leanOK := scan(logFormat, data, false, 0)
		if ok != leanOK {
			t.Fatalf("%q: scan collecting says %v, without collecting %v", data, ok, leanOK)
		}
		if split, splitOK := scanSplit(logFormat, data, false, 0, 0); splitOK != leanOK || splitOK && !reflect.DeepEqual(split, lean) {
			t.Fatalf("%q: the scan split in two halves = %+v, %v; one reader %+v, %v", data, split, splitOK, lean, leanOK)
		}
		if !ok {
			return
		}
		if exactErr != nil {
			t.Fatalf("%q: the fast path takes what parsePlain refuses: %v", data, exactErr)
		}
		if nextID(lean) != exact.NextID || lean.N != len(exact.Records) || lean.Start != s.Start || lean.End != s.End || lean.elems.list != nil {
			t.Fatalf("%q: scan without collecting = %+v; collecting %+v; exact %+v", data, lean, s, exact)
		}
		if lean.N > 0 && (data[lean.Start] != '{' || data[lean.End-1] != '}') {
			t.Fatalf("%q: the records' bytes %q are not from the first '{' to the last '}'", data, data[lean.Start:lean.End])
		}
		if nextID(lean) == math.MaxInt {
			return
		}
		rec := Record{ID: nextID(lean), Agent: "a", Title: "<new> & \"one\"", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 7, Hostname: "h"}
		doc := bytes.Join(splice(logFormat, data, lean, rec, nextID(lean)+1), nil)
		back, err := parseExactLog("again", doc)
		if err != nil || back.NextID != nextID(lean)+1 || !slices.Equal(back.Records, append(slices.Clone(exact.Records), rec)) {
			t.Fatalf("%q: the splice %q reads back as %+v, %v; want the records and %+v", data, doc, back, err, rec)
		}
		if again, ok := scan(logFormat, doc, false, 0); !ok || again.N != lean.N+1 {
			t.Fatalf("%q: the splice %q is not taken by the fast path (%+v, %v)", data, doc, again, ok)
		}
	})
}

// sameLog fails unless the two parses of data are the same log, each
// record's kept bytes included (compared compacted: the exact parse keeps
// them as encoding/json hands them over).
func sameLog(t *testing.T, data []byte, got, want Log) {
	t.Helper()
	if got.NextID != want.NextID || !slices.Equal(got.Records, want.Records) || len(got.raw) != len(want.raw) {
		t.Fatalf("%q: Parse = %+v; parsePlain = %+v", data, got, want)
	}
	for i := range got.raw {
		var a, b bytes.Buffer
		if json.Compact(&a, got.raw[i]) != nil || json.Compact(&b, want.raw[i]) != nil || a.String() != b.String() {
			t.Fatalf("%q: record %d kept as %q; parsePlain keeps %q", data, i, got.raw[i], want.raw[i])
		}
	}
}

// The splice of an append onto a document encode wrote is byte for byte
// what encode writes for the log with the record appended (titles with <,
// > and &, which json escapes, an empty records array, many records), and
// the old records are a slice of the bytes read, not a copy.
func TestSpliceIsEncodeLog(t *testing.T) {
	news := []Record{
		{Agent: "demo", Title: "a <b> & c", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 9, Hostname: "h"},
		{Agent: "", Title: "", OpenedAt: "", PID: 0, Hostname: "\u2029\x7f"},
	}
	for i, l := range canonicalLog() {
		data := l.encode()
		for _, rec := range news {
			s, ok := scan(logFormat, data, false, 0)
			if !ok {
				t.Fatalf("log %d: the fast path does not take what encode wrote:\n%s", i, data)
			}
			next := l
			next.Records, next.raw = slices.Clone(l.Records), slices.Clone(l.raw)
			want, err := next.appendRecord(rec)
			if err != nil {
				t.Fatal(err)
			}
			rec.ID = nextID(s)
			parts := splice(logFormat, data, s, rec, nextID(s)+1)
			if got := bytes.Join(parts, nil); !bytes.Equal(got, next.encode()) || rec != want {
				t.Errorf("log %d: the splice writes\n%s\nencode writes\n%s", i, got, next.encode())
			}
			if s.N > 0 && (len(parts) != 3 || &parts[1][0] != &data[s.Start] || len(parts[1]) != s.End-s.Start) {
				t.Errorf("log %d: the old records are not the bytes read, in place", i)
			}
		}
	}
}

// Parse takes the common shape fast, and what only the exact parse takes
// it leaves to it: each of these documents is accepted, by one path.
func TestFastPathTakesTheCommonShapeLog(t *testing.T) {
	fast := []string{
		`{"version":1,"nextId":2,"records":[{"id":1}]}`,
		" \r\n\t{ \"records\" : [ ] , \"nextId\" : -3 , \"version\" : 1 } \n",
		`{"version":1,"nextId":9,"records":[{"id":1,"title":null,"pid":-0,"x":[{"y":"\u00e9\n"},1e5,true,null],"hostname":"\u00e9"}]}`,
		// Laid out as encode writes it up to a field it does not write:
		// read key by key from the record's start.
		"{\"version\":1,\"nextId\":9,\"records\":[{\n      \"id\": 1,\n      \"agent\": \"a\",\n      \"title\": \"t\",\n      \"openedAt\": \"o\",\n      \"pid\": 2,\n      \"hostname\": \"h\",\n      \"later\": 1\n    }]}",
	}
	slow := []string{
		`{"version":1,"records":[{"id":1}]}`,                    // no nextId
		`{"Version":1,"nextId":2,"records":[{"id":1}]}`,         // a case variant
		`{"version":1,"nextId":2,"records":[{"ID":1}]}`,         // a case variant in a record
		`{"version":1,"nextId":2,"records":[{"id":1,"id":2}]}`,  // a duplicate
		"{\"version\":1,\"nextId\":2,\"recordſ\":[{\"id\":1}]}", // the long s folds to s
		"{\"version\":1,\"nextId\":2,\"records\":[{\"id\":1,\"hostname\":\"a\",\"hoſtname\":\"b\"}]}",
		`{"version":1,"nextId":2,"records":[{"i\u0064":1}]}`,       // an escaped key
		`{"version":1,"nextId":null,"records":[{"id":1}]}`,         // a null nextId
		`{"version":1,"nextId":2,"records":[{"id":1,"pid":null}]}`, // a null int
		`{"version":1,"nextId":2,"records":[{"id":1,"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]}`,
	}
	for _, doc := range append(fast, slow...) {
		if _, err := parseExactLog("x", []byte(doc)); err != nil {
			t.Fatalf("%q: parsePlain = %v; want it accepted", doc, err)
		}
		_, ok := scan(logFormat, []byte(doc), false, 0)
		if wantFast := slices.Contains(fast, doc); ok != wantFast {
			t.Errorf("%q: the fast path takes it: %v; want %v", doc, ok, wantFast)
		}
	}
}

// The scan split in two halves read at once gives one reader's result on
// a large log, and refuses it, as one reader does, when a byte of either
// half is off; the split falls between two records however the records
// are laid out around the middle (a record read key by key there, a
// string that holds the layout between two records, escaped).
func TestScanSplitIsOneReaderLog(t *testing.T) {
	data := benchLog(2000)
	one, ok := scanSplit(logFormat, data, false, 0, len(data)+1)
	if !ok || one.N != 2000 {
		t.Fatalf("one reader: %+v, %v", one, ok)
	}
	if got, ok := scanSplit(logFormat, data, false, 0, 0); !ok || !reflect.DeepEqual(got, one) {
		t.Fatalf("two halves: %+v, %v; one reader %+v", got, ok, one)
	}
	for _, at := range []int{len(data) / 4, len(data)/2 + 10, len(data) * 3 / 4} {
		bad := bytes.Clone(data)
		i := at + bytes.Index(bad[at:], []byte(`"title": "`)) + len(`"title": "`)
		bad[i] = 0x01 // a control character in a title: not JSON
		if got, ok := scanSplit(logFormat, bad, false, 0, 0); ok {
			t.Fatalf("two halves took a control character at %d: %+v", i, got)
		}
	}
	mid := len(data) / 2
	rec := bytes.LastIndex(data[:mid], []byte("{\n      \"id\": "))
	for _, swap := range [][2]string{
		{"\"title\": \"", "\"title\": \"},\\n    {\\\"x\\\": "},             // the layout inside a string, escaped
		{"{\n      \"id\": ", "{ \"later\": {\"a\": [1]},\n      \"id\": "}, // read key by key
	} {
		odd := append(append(bytes.Clone(data[:rec]), bytes.Replace(data[rec:rec+400], []byte(swap[0]), []byte(swap[1]), 1)...), data[rec+400:]...)
		want, wantOK := scanSplit(logFormat, odd, false, 0, len(odd)+1)
		if got, ok := scanSplit(logFormat, odd, false, 0, 0); ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in the middle: two halves %+v, %v; one reader %+v, %v", swap[1], got, ok, want, wantOK)
		}
		if !wantOK {
			t.Fatalf("%q in the middle: one reader refuses it", swap[1])
		}
	}
}

// Where the layout between two records is also inside a record (a field
// this version does not know, holding objects laid out the same way), the
// first half does not end a record at the split: the array is read again
// by one reader, with one reader's result.
func TestScanSplitInsideARecordFallsBackLog(t *testing.T) {
	data := benchLog(2000)
	mid := len(data) / 2
	nested := []byte("\"later\": [{\"a\": 1}" + recordSep + "{\"b\": 2}],\n      \"hostname\": ")
	around := bytes.ReplaceAll(data[mid-3000:mid+3000], []byte(`"hostname": `), nested)
	odd := append(append(bytes.Clone(data[:mid-3000]), around...), data[mid+3000:]...)
	at := splitAt(odd, bytes.IndexByte(odd, '[')+1, "}"+recordSep+"{")
	if !bytes.HasPrefix(odd[at:], []byte(recordSep+"{\"b\"")) {
		t.Fatalf("the split at %d is not inside a record (%q): the test does not test the fallback", at, odd[at:at+20])
	}
	want, wantOK := scanSplit(logFormat, odd, false, 0, len(odd)+1)
	if got, ok := scanSplit(logFormat, odd, false, 0, 0); !wantOK || !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("two halves %+v, %v; one reader %+v, %v", got, ok, want, wantOK)
	}
}

// canonical are boards as pa writes them (encode): what the fast path must
// take, and the splice must continue byte for byte.
func canonicalBoard() []Board {
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

// FuzzFastPathBoard is the differential test of the board's fast path: on any
// bytes, Parse (the hand-written scan first) and parsePlain (encoding/json
// alone) agree, on the error and its message too; whatever the scan takes,
// the exact parse takes with the same items, in both of the scan's modes
// (and found says whether an item has the id looked for); and the splice
// of a new item onto it reads back, exactly and fast, as those items and
// the new one.
// Its seeds are what encode writes and the hand-written edges of
// seeds (seedsLog, seedsBoard).
func FuzzFastPathBoard(f *testing.F) {
	for _, b := range canonicalBoard() {
		f.Add(b.encode())
	}
	for _, h := range seedsBoard() {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "agents/a/board/board.json"
		exact, exactErr := parseExactBoard(name, data)
		got, err := parseBoard(name, data)
		if (err == nil) != (exactErr == nil) || err != nil && err.Error() != exactErr.Error() {
			t.Fatalf("%q: Parse = %v; parsePlain = %v", data, err, exactErr)
		}
		if err == nil {
			sameBoard(t, data, got, exact)
		}
		s, ok := scan(boardFormat, data, true, 0)
		find := 1
		if len(exact.Items) > 0 {
			find = exact.Items[len(exact.Items)-1].DispatchID
		}
		lean, leanOK := scan(boardFormat, data, false, find)
		if split, splitOK := scanSplit(boardFormat, data, false, find, 0); splitOK != leanOK || splitOK && !reflect.DeepEqual(split, lean) {
			t.Fatalf("%q: the scan split in two halves = %+v, %v; one reader %+v, %v", data, split, splitOK, lean, leanOK)
		}
		if ok != leanOK {
			t.Fatalf("%q: scan collecting says %v, without collecting %v", data, ok, leanOK)
		}
		if !ok {
			return
		}
		if exactErr != nil {
			t.Fatalf("%q: the fast path takes what parsePlain refuses: %v", data, exactErr)
		}
		if lean.N != len(exact.Items) || lean.Start != s.Start || lean.End != s.End || lean.elems.list != nil || lean.elems.found != exact.Has(find) {
			t.Fatalf("%q: scan without collecting = %+v (find %d); collecting %+v; exact %+v", data, lean, find, s, exact)
		}
		if lean.N > 0 && (data[lean.Start] != '{' || data[lean.End-1] != '}') {
			t.Fatalf("%q: the items' bytes %q are not from the first '{' to the last '}'", data, data[lean.Start:lean.End])
		}
		it := Item{DispatchID: math.MaxInt32, Title: "<new> & \"one\"", AddedAt: "2026-11-29T15:42:59.123Z"}
		doc := bytes.Join(splice(boardFormat, data, lean, it, 0), nil)
		back, err := parseExactBoard("again", doc)
		if err != nil || !slices.Equal(back.Items, append(slices.Clone(exact.Items), it)) {
			t.Fatalf("%q: the splice %q reads back as %+v, %v; want the items and %+v", data, doc, back, err, it)
		}
		if again, ok := scan(boardFormat, doc, false, it.DispatchID); !ok || again.N != lean.N+1 || !again.elems.found {
			t.Fatalf("%q: the splice %q is not taken by the fast path (%+v, %v)", data, doc, again, ok)
		}
	})
}

// sameBoard fails unless the two parses of data are the same board, each
// item's kept bytes included (compared compacted).
func sameBoard(t *testing.T, data []byte, got, want Board) {
	t.Helper()
	if !slices.Equal(got.Items, want.Items) || len(got.raw) != len(want.raw) {
		t.Fatalf("%q: Parse = %+v; parsePlain = %+v", data, got, want)
	}
	for i := range got.raw {
		var a, b bytes.Buffer
		if json.Compact(&a, got.raw[i]) != nil || json.Compact(&b, want.raw[i]) != nil || a.String() != b.String() {
			t.Fatalf("%q: item %d kept as %q; parsePlain keeps %q", data, i, got.raw[i], want.raw[i])
		}
	}
}

// The splice of a new item onto a board encode wrote is byte for byte what
// encode writes with the item added (titles with <, > and &, which json
// escapes, an empty items array, many items), and the old items are a
// slice of the bytes read, not a copy.
func TestSpliceIsEncodeBoard(t *testing.T) {
	news := []Item{
		{DispatchID: 1000, Title: "a <b> & c", AddedAt: "2026-11-29T15:42:59.123Z"},
		{DispatchID: 1001, Title: "", AddedAt: "\u2029\x7f"},
	}
	for i, b := range canonicalBoard() {
		data := b.encode()
		for _, it := range news {
			s, ok := scan(boardFormat, data, false, it.DispatchID)
			if !ok || s.elems.found {
				t.Fatalf("board %d: the fast path does not take what encode wrote (%v, found %v):\n%s", i, ok, s.elems.found, data)
			}
			next := Board{Items: slices.Clone(b.Items), raw: slices.Clone(b.raw)}
			next.add(it)
			parts := splice(boardFormat, data, s, it, 0)
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
func TestFastPathTakesTheCommonShapeBoard(t *testing.T) {
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
		"{\"version\":1,\"itemſ\":[{\"dispatchId\":1}]}",          // the long s folds to s
		`{"version":1,"items":[{"dispatch\u0049d":1}]}`,           // an escaped key
		`{"version":1,"items":[{"dispatchId":1,"title":"a","Title":"b"}]}`,
		`{"version":1,"items":[{"dispatchId":1,"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]}`,
	}
	for _, doc := range append(fast, slow...) {
		if _, err := parseExactBoard("x", []byte(doc)); err != nil {
			t.Fatalf("%q: parsePlain = %v; want it accepted", doc, err)
		}
		_, ok := scan(boardFormat, []byte(doc), false, 0)
		if wantFast := slices.Contains(fast, doc); ok != wantFast {
			t.Errorf("%q: the fast path takes it: %v; want %v", doc, ok, wantFast)
		}
	}
}

// The scan split in two halves read at once gives one reader's result on
// a large board (found too, in either half), refuses it, as one reader
// does, when a byte of either half is off, and falls back to one reader
// where the layout between two items is also inside an item.
func TestScanSplitIsOneReaderBoard(t *testing.T) {
	data := benchBoard(2000)
	for _, find := range []int{1, 1999, 2001} {
		one, ok := scanSplit(boardFormat, data, false, find, len(data)+1)
		if !ok || one.N != 2000 || one.elems.found != (find <= 2000) {
			t.Fatalf("one reader: %+v, %v", one, ok)
		}
		if got, ok := scanSplit(boardFormat, data, false, find, 0); !ok || !reflect.DeepEqual(got, one) {
			t.Fatalf("two halves: %+v, %v; one reader %+v", got, ok, one)
		}
	}
	for _, at := range []int{len(data) / 4, len(data) * 3 / 4} {
		bad := bytes.Clone(data)
		i := at + bytes.Index(bad[at:], []byte(`"title": "`)) + len(`"title": "`)
		bad[i] = 0x01
		if got, ok := scanSplit(boardFormat, bad, false, 0, 0); ok {
			t.Fatalf("two halves took a control character at %d: %+v", i, got)
		}
	}
	mid := len(data) / 2
	nested := []byte("\"later\": [{\"a\": 1}" + itemSep + "{\"b\": 2}],\n      \"addedAt\": ")
	around := bytes.ReplaceAll(data[mid-3000:mid+3000], []byte(`"addedAt": `), nested)
	odd := append(append(bytes.Clone(data[:mid-3000]), around...), data[mid+3000:]...)
	at := splitAt(odd, bytes.IndexByte(odd, '[')+1, "}"+itemSep+"{")
	if !bytes.HasPrefix(odd[at:], []byte(itemSep+"{\"b\"")) {
		t.Fatalf("the split at %d is not inside an item (%q): the test does not test the fallback", at, odd[at:at+20])
	}
	want, wantOK := scanSplit(boardFormat, odd, false, 0, len(odd)+1)
	if got, ok := scanSplit(boardFormat, odd, false, 0, 0); !wantOK || !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("an item around the split: two halves %+v, %v; one reader %+v, %v", got, ok, want, wantOK)
	}
}

// TestSplitPastTheSplitIsNoEnd: where the layout between two records is
// inside a record (an array of objects in a field this version does not
// know) and the document is cut short there, the first half reads that
// record past the split, and must not take that as ending at it: the second
// half, starting inside the record, would read its nested objects as
// records and its closers as the array's and the document's end, taking a
// document that one reader (and encoding/json) refuses as cut short.
func TestSplitPastTheSplitIsNoEndLog(t *testing.T) {
	nested := `"later": [{"id": 5}` + recordSep + `{"id": 6}]}`
	doc := `{"version": 1, "nextId": 2, "records": [{"id": 1, "pad": "` + strings.Repeat("x", 200) + `", ` + nested
	data := []byte(doc) // cut short: the records' ']' and the object's '}' are missing
	if _, err := parseExactLog("s", data); err == nil {
		t.Fatal("parsePlain takes the cut-short document: the test does not test the split")
	}
	if _, ok := scanSplit(logFormat, data, false, 0, len(data)+1); ok {
		t.Fatal("one reader takes the cut-short document")
	}
	if s, ok := scanSplit(logFormat, data, false, 0, 0); ok {
		t.Fatalf("the scan split in two halves takes the cut-short document: %+v", s)
	}
}

// TestRecordRunStopsAtTheSplitLog pins scanRun's contract with a stop
// (the first half of a split read): a record that goes past stop ends the
// run there, not ok, without reading the records after it (the second
// half reads them: nothing is read twice); and the array's ']' met before
// stop is not ok either (the first half never reads the array's end).
func TestRecordRunStopsAtTheSplitLog(t *testing.T) {
	data := []byte(`[{"id": 1, "title": "a"}, {"id": 2}, {"id": 3}]`)
	first := len(`[{"id": 1, "title": "a"}`)
	for _, stop := range []int{3, first - 1} { // inside the first record
		s := jsonscan.Scanner{Data: data, Pos: 1}
		var e bounds
		var rs elems[Record]
		if ended, ok := scanRun(logFormat, &s, &e, &rs, stop); ended || ok || s.Pos != first {
			t.Errorf("stop %d inside the first record: ended %v, ok %v at %d; want neither, at %d (the first record's end)", stop, ended, ok, s.Pos, first)
		}
	}
	s := jsonscan.Scanner{Data: data, Pos: 1}
	var e bounds
	var rs elems[Record]
	if ended, ok := scanRun(logFormat, &s, &e, &rs, len(data)+10); ended || ok {
		t.Errorf("stop past the array's end: ended %v, ok %v; want neither", ended, ok)
	}
	s = jsonscan.Scanner{Data: data, Pos: 1}
	e, rs = bounds{}, elems[Record]{}
	if ended, ok := scanRun(logFormat, &s, &e, &rs, first); !ended || !ok || e.N != 1 || s.Pos != first {
		t.Errorf("stop at the first record's end: ended %v, ok %v, %d records at %d; want ended there with one", ended, ok, e.N, s.Pos)
	}
}

// TestScanSplitJoinsTheLargestID: the largest id may be in either half of
// a split read (ids need not grow along the log, and the file's nextId may
// be below them): the next id is above it either way.
func TestScanSplitJoinsTheLargestIDLog(t *testing.T) {
	data := benchLog(2000)
	for _, at := range []int{0, len(data) - 400} { // a record in the first half, one in the second
		odd := bytes.Clone(data)
		i := at + bytes.Index(odd[at:], []byte(`"id": `)) + len(`"id": `)
		j := i + bytes.IndexByte(odd[i:], ',')
		odd = append(append(odd[:i:i], "999999"...), odd[j:]...)
		one, oneOK := scanSplit(logFormat, odd, false, 0, len(odd)+1)
		two, twoOK := scanSplit(logFormat, odd, false, 0, 0)
		if !oneOK || nextID(one) != 1000000 || !twoOK || nextID(two) != nextID(one) {
			t.Errorf("id 999999 at %d: two halves give next id %d (%v); one reader %d (%v); want 1000000", i, nextID(two), twoOK, nextID(one), oneOK)
		}
	}
}

// TestSplitPastTheSplitIsNoEnd: where the layout between two items is
// inside an item (an array of objects in a field this version does not
// know) and the board is cut short there, the first half reads that item
// past the split, and must not take that as ending at it: the second half,
// starting inside the item, would read its nested objects as items and its
// closers as the array's and the board's end, taking a board that one
// reader (and encoding/json) refuses as cut short.
func TestSplitPastTheSplitIsNoEndBoard(t *testing.T) {
	nested := `"later": [{"dispatchId": 5}` + itemSep + `{"dispatchId": 6}]}`
	data := []byte(`{"version": 1, "items": [{"dispatchId": 1, "pad": "` + strings.Repeat("x", 200) + `", ` + nested)
	if _, err := parseExactBoard("b", data); err == nil {
		t.Fatal("parsePlain takes the cut-short board: the test does not test the split")
	}
	if _, ok := scanSplit(boardFormat, data, false, 6, len(data)+1); ok {
		t.Fatal("one reader takes the cut-short board")
	}
	if s, ok := scanSplit(boardFormat, data, false, 6, 0); ok {
		t.Fatalf("the scan split in two halves takes the cut-short board: %+v", s)
	}
}

// TestScanSplitJoinsFound: the item looked for may be in either half of a
// split read: found says so either way.
func TestScanSplitJoinsFoundBoard(t *testing.T) {
	data := benchBoard(2000)
	for _, find := range []int{1, 2000} { // the first item, the last
		one, oneOK := scanSplit(boardFormat, data, false, find, len(data)+1)
		two, twoOK := scanSplit(boardFormat, data, false, find, 0)
		if !oneOK || !one.elems.found || !twoOK || !two.elems.found {
			t.Errorf("find %d: two halves found %v (%v); one reader %v (%v); want found", find, two.elems.found, twoOK, one.elems.found, oneOK)
		}
	}
}

// TestItemRunStopsAtTheSplitBoard pins scanRun's contract with a stop (the
// first half of a split read): an item that goes past stop ends the run
// there, not ok, without reading the items after it (the second half reads
// them: nothing is read twice); and the array's ']' met before stop is not
// ok either (the first half never reads the array's end).
func TestItemRunStopsAtTheSplitBoard(t *testing.T) {
	data := []byte(`[{"dispatchId": 1, "title": "a"}, {"dispatchId": 2}, {"dispatchId": 3}]`)
	first := len(`[{"dispatchId": 1, "title": "a"}`)
	for _, stop := range []int{3, first - 1} { // inside the first item
		s := jsonscan.Scanner{Data: data, Pos: 1}
		var e bounds
		var is elems[Item]
		if ended, ok := scanRun(boardFormat, &s, &e, &is, stop); ended || ok || s.Pos != first {
			t.Errorf("stop %d inside the first item: ended %v, ok %v at %d; want neither, at %d (the first item's end)", stop, ended, ok, s.Pos, first)
		}
	}
	s := jsonscan.Scanner{Data: data, Pos: 1}
	var e bounds
	var is elems[Item]
	if ended, ok := scanRun(boardFormat, &s, &e, &is, len(data)+10); ended || ok {
		t.Errorf("stop past the array's end: ended %v, ok %v; want neither", ended, ok)
	}
	s = jsonscan.Scanner{Data: data, Pos: 1}
	e, is = bounds{}, elems[Item]{}
	if ended, ok := scanRun(boardFormat, &s, &e, &is, first); !ended || !ok || e.N != 1 || s.Pos != first {
		t.Errorf("stop at the first item's end: ended %v, ok %v, %d items at %d; want ended there with one", ended, ok, e.N, s.Pos)
	}
}

// The fast scan of an append (collect false) allocates nothing on a log
// too small to be split: neither its Scanner nor what it takes of the
// records escapes to the heap through jsonscan's readers (bounds,
// Scanner.Object, which takes a closure).
func TestScanAllocatesNothingLog(t *testing.T) {
	data := benchLog(50)
	if n := testing.AllocsPerRun(20, func() {
		if s, ok := scan(logFormat, data, false, 0); !ok || s.N != 50 {
			t.Fatalf("scan = %+v, %v", s, ok)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times; want none", n)
	}
}

// Nor on a log read key by key (compacted: no record is laid out as encode
// writes it): the values of its strings are checked, not kept.
func TestScanByKeyAllocatesNothingLog(t *testing.T) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchLog(50)); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if n := testing.AllocsPerRun(20, func() {
		if s, ok := scan(logFormat, data, false, 0); !ok || s.N != 50 {
			t.Fatalf("scan = %+v, %v", s, ok)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times; want none", n)
	}
}

// The fast scan of an open (collect false) allocates nothing on a board
// too small to be split: neither its Scanner nor what it takes of the
// items escapes to the heap through jsonscan's readers (bounds,
// Scanner.Object, which takes a closure).
func TestScanAllocatesNothingBoard(t *testing.T) {
	data := benchBoard(50)
	if n := testing.AllocsPerRun(20, func() {
		if s, ok := scan(boardFormat, data, false, 51); !ok || s.N != 50 || s.elems.found {
			t.Fatalf("scan = %+v, %v", s, ok)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times; want none", n)
	}
}

// Nor on a board read key by key (compacted: no item is laid out as encode
// writes it): the values of its strings are checked, not kept.
func TestScanByKeyAllocatesNothingBoard(t *testing.T) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchBoard(50)); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if n := testing.AllocsPerRun(20, func() {
		if s, ok := scan(boardFormat, data, false, 51); !ok || s.N != 50 || s.elems.found {
			t.Fatalf("scan = %+v, %v", s, ok)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times; want none", n)
	}
}

// TestFastPathRefusesWhatExactRefuses: documents that are not JSON, or not
// a spawn-log, in ways each of the fast path's checks alone stands between
// them and a wrong "ok" (a key cut short at the end of the data, a control
// character in a key, a record whose '}' is missing before the array's ']',
// an unknown field's value cut short, the object's own '}' missing):
// Parse refuses each with the exact parser's error, and neither scan mode
// takes it.
func TestFastPathRefusesWhatExactRefusesLog(t *testing.T) {
	for _, doc := range []string{
		`{"`,
		"{\"version\x18:1,\"nextId\":0,\"records\":[]}",
		`{"version":1,"nextId":2,"records":[{"id":1]}`,
		`{"version":1,"nextId":2,"records":[]`,
		`{"version":1,"nextId":2,"records":[{"id":1,"x":[1,}]}`,
	} {
		_, exactErr := parseExactLog("s", []byte(doc))
		if exactErr == nil {
			t.Fatalf("%q: parsePlain takes it; the case tests nothing", doc)
		}
		if _, err := parseLog("s", []byte(doc)); !errors.Is(err, ErrCorrupt) || err.Error() != exactErr.Error() {
			t.Errorf("%q: Parse = %v; want parsePlain's %v", doc, err, exactErr)
		}
		for _, collect := range []bool{true, false} {
			if s, ok := scan(logFormat, []byte(doc), collect, 0); ok {
				t.Errorf("%q: scan (collect %v) takes it: %+v", doc, collect, s)
			}
		}
	}
}

// TestParseKeepsEachRecordsBytesCapped: each record's bytes kept for a
// rewrite are a slice of the data with no capacity past the record, so that
// nothing appending to one could write over the next record's bytes.
func TestParseKeepsEachRecordsBytesCappedLog(t *testing.T) {
	data := canonicalLog()[3].encode()
	l, err := parseLog("s", data)
	if err != nil || len(l.raw) != 3 {
		t.Fatalf("Parse = %d records, %v", len(l.raw), err)
	}
	for i, raw := range l.raw {
		if cap(raw) != len(raw) {
			t.Errorf("record %d: %d bytes with capacity %d", i, len(raw), cap(raw))
		}
	}
}

// TestFastPathRefusesWhatExactRefuses: boards that are not JSON in ways
// one check of the fast path alone stands between them and a wrong "ok"
// (an item whose '}' is missing before the array's ']', an unknown field's
// value cut short, the object's own '}' missing): Parse refuses each
// with the exact parser's error, and neither scan mode takes it.
func TestFastPathRefusesWhatExactRefusesBoard(t *testing.T) {
	for _, doc := range []string{
		`{"version":1,"items":[{"dispatchId":1]}`,
		`{"version":1,"items":[{"dispatchId":1,"title":"a"]}`,
		`{"version":1,"items":[{"dispatchId":1,"x":[1,}]}`,
		`{"version":1,"items":[]`,
	} {
		_, exactErr := parseExactBoard("b", []byte(doc))
		if exactErr == nil {
			t.Fatalf("%q: parsePlain takes it; the case tests nothing", doc)
		}
		if _, err := parseBoard("b", []byte(doc)); !errors.Is(err, ErrCorrupt) || err.Error() != exactErr.Error() {
			t.Errorf("%q: Parse = %v; want parsePlain's %v", doc, err, exactErr)
		}
		for _, collect := range []bool{true, false} {
			if s, ok := scan(boardFormat, []byte(doc), collect, 1); ok {
				t.Errorf("%q: scan (collect %v) takes it: %+v", doc, collect, s)
			}
		}
	}
}

// TestParseKeepsEachItemsBytesCapped: each item's bytes kept for a rewrite
// are a slice of the data with no capacity past the item, so that nothing
// appending to one could write over the next item's bytes.
func TestParseKeepsEachItemsBytesCappedBoard(t *testing.T) {
	data := canonicalBoard()[3].encode()
	b, err := parseBoard("b", data)
	if err != nil || len(b.raw) != 3 {
		t.Fatalf("Parse = %d items, %v", len(b.raw), err)
	}
	for i, raw := range b.raw {
		if cap(raw) != len(raw) {
			t.Errorf("item %d: %d bytes with capacity %d", i, len(raw), cap(raw))
		}
	}
}

// BenchmarkScanLog is the fast scan of an append (collect false) on a
// spawn-log of 100k records: its throughput is the scan's share of
// `pa dispatch open` at that size.
func BenchmarkScanLog(b *testing.B) {
	data := benchLog(100000)
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(logFormat, data, false, 0); !ok || s.N != 100000 {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}

// BenchmarkScanByKeyLog is BenchmarkScanLog on the same log compacted (no
// whitespace): each record read key by key, the fast path's fallback.
func BenchmarkScanByKeyLog(b *testing.B) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchLog(100000)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(logFormat, data, false, 0); !ok || s.N != 100000 {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}

// BenchmarkScanBoard is the fast scan of an open (collect false) on a board of
// 100k items: its throughput is the scan's share of `pa dispatch open`.
func BenchmarkScanBoard(b *testing.B) {
	data := benchBoard(100000)
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(boardFormat, data, false, 100001); !ok || s.N != 100000 || s.elems.found {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}

// BenchmarkScanByKeyBoard is BenchmarkScanBoard on the same board compacted (no
// whitespace): each item read key by key, the fast path's fallback.
func BenchmarkScanByKeyBoard(b *testing.B) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchBoard(100000)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(boardFormat, data, false, 100001); !ok || s.N != 100000 || s.elems.found {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}

// handSeeds are documents written by hand at the edges where the fast
// path might part from encoding/json, run as FuzzFastPath's seeds (so by
// every go test): integers at the int64 edges and past them, numbers an int
// field refuses, \u escapes with lone and paired surrogates, invalid UTF-8,
// duplicate keys (in a record, nested, at the top), case variants of the
// fields, whitespace JSON does not have, ids out of order and above
// nextId, a BOM, data after the object, nesting past the depth limit, and
// the layout between two records inside a record, around the array and
// after it (where the two-half scan splits).
func seedsLog() []string {
	rec := func(body string) string { return `{"version":1,"nextId":2,"records":[` + body + `]}` }
	var out []string
	for _, r := range []string{
		`{"id":9223372036854775806}`, `{"id":9223372036854775807}`, `{"id":9223372036854775808}`,
		`{"id":1,"pid":-9223372036854775808}`, `{"id":1,"pid":-9223372036854775809}`, `{"id":1,"pid":1e2}`,
		`{"id":1,"pid":1.0}`, `{"id":1,"pid":-0}`, `{"id":1,"pid":-}`, `{"id":1,"pid":01}`,
		`{"id":1,"x":1e999}`, `{"id":1,"x":-1e-999}`, `{"id":1,"x":123456789012345678901234567890}`,
		`{"id":1,"title":"\ud800"}`, `{"id":1,"title":"\ud800\udc00"}`, `{"id":1,"title":"\udc00\ud800"}`,
		`{"id":1,"title":"\ud83d\ude00"}`, `{"id":1,"title":"\uD83D\uDE00"}`, `{"id":1,"title":"\u0000"}`,
		"{\"id\":1,\"title\":\"\xff\xfe\"}", "{\"id\":1,\"title\":\"\xed\xa0\x80\"}", "{\"id\":1,\"title\":\"\xc0\xaf\"}",
		`{"id":1,"title":"a","title":"b"}`, `{"id":1,"title":"a","title":null}`, `{"id":1,"x":1,"x":2}`,
		`{"id":1,"x":{"a":1,"a":2}}`, `{"id":1,"Title":"a"}`, `{"id":1,"TITLE":"a","title":"b"}`,
		`{"id":1,"openedat":"a"}`, `{"id":1,"hostName":"a"}`, `{"id":1,"PID":3}`, `{"ID":1,"id":2}`,
		`{"id":1,"AGENT":"a"}`, `{"id":1,"Agent":"a","agent":"b"}`, `{"id":1,"OpenedAt":"a"}`, `{"id":1,"Hostname":"a"}`, `{"id":1,"Pid":3}`, `{"Id":1}`,
		"{\"id\":1,\"\x7f\":1}", "{\"id\":1,\"ti\x7ftle\":1}", `{"id":1,"":1}`,
		"{\"id\":1\u00a0}", "{\"id\":1\v}", "{\"id\":1\f}", "{ \"id\" :\r\n\t1 }",
		`{"id":1,"agent":"\/"}`, `{"id":1,"agent":"\u00E9"}`, `{"id":1,"agent":"\u00e"}`,
		`{"id":1,"agent":true}`, `{"id":1,"agent":1}`, `{"id":1,"agent":[]}`, `{"id":"1"}`, `{"id":null,"id":1}`,
		`{"id":1,"id":null}`, `{"id":true}`, `{"id":1,}`, `{"id":1 "x":2}`, `{"id"  :  1  }`,
		`{"id":1,"x":[` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `]}`,
		`{"id":1,"x":[` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `]}`,
		`{"id":1,"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
		`{"id":2},{"id":2}`, `{"id":3},{"id":1}`, `{"id":1},`, `{"id":1},]`, `1`, `null`, `{"id":1} {"id":2}`,
	} {
		out = append(out, rec(r))
	}
	out = append(out,
		"\ufeff"+`{"version":1,"nextId":2,"records":[]}`,
		`{"version":1,"nextId":2,"records":[]}x`, `{"version":1,"nextId":2,"records":[]}}`,
		`{"version":1,"nextId":2,"records":[]}`+"\x00",
		`{"version":1.0,"nextId":2,"records":[]}`, `{"version":1e0,"nextId":2,"records":[]}`,
		`{"version":10,"nextId":2,"records":[]}`, `{"version":01,"nextId":2,"records":[]}`,
		`{"version":-1,"nextId":2,"records":[]}`, `{"version":1 ,"nextId":2,"records":[]}`,
		`{"version":1,"nextId":9223372036854775807,"records":[]}`, `{"version":1,"nextId":9223372036854775808,"records":[]}`,
		`{"version":1,"nextId":-9223372036854775808,"records":[]}`, `{"version":1,"nextId":2.5,"records":[]}`,
		`{"version":1,"nextId":2,"nextId":1,"records":[{"id":5}]}`, `{"version":1,"version":1,"nextId":2,"records":[]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}],"records":[{"id":2}]}`, `{"version":1,"nextId":2,"records":null}`,
		`{"version":1,"nextId":2,"records":{}}`, `{"version":1,"nextId":2,"records":[],"x":1}`,
		`{"version":1,"nextId":2,"records":[],"NextId":7}`, `{"version":1,"nextid":7,"records":[]}`,
		`{"version":1,"nextId":2,"records":[ ]}`, `{"version":1,"nextId":2,"records":[`,
		`{"version":1,"nextId":2,"records":[{"id":1}`, `{"version":1,"nextId":2,"records":[{"id":1}]`,
		`{"version":null,"nextId":2,"records":[]}`, `{"nextId":2,"records":[]}`,
		`{"version":1,"nextId":2,"records":[]}`+"\r\n\t ",
		``, ` `, `{}`, `[]`,
	)
	sep := "},\n    {"
	out = append(out,
		`{"version":1,"nextId":2,"records":[{"id":1,"title":"a`+sep+`b"}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}]}`+sep,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2},{"id":3}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1},{"id":1}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}],"records":[{"id":1}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1,"x":[{}`+sep+`}]}`+sep+`"id":2}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}]`+sep+`}`,
		`{"records":[{"id":1}`+sep+`"id":2}],"version":1,"nextId":2}`,
		`{"records":[{"id":1}`+sep+`"id":2}],"version":1,"nextId":2`+sep+`}`,
		`[{"id":1}`+sep+`"id":2}]`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+`"id":2}`+sep+`"id":3}]}`,
		`{"version":1,"nextId":2,"records":[{"id":1}`+sep+"\"id\":2}\n  ]\n}\n",
	)
	return out
}

// handSeeds are documents written by hand at the edges where the fast
// path might part from encoding/json, run as FuzzFastPath's seeds (so by
// every go test): integers at the int64 edges and past them, numbers an int
// field refuses, \u escapes with lone and paired surrogates, invalid UTF-8,
// duplicate keys (in a item, nested, at the top), case variants of the
// fields, whitespace JSON does not have, a BOM, data after the object,
// nesting past the depth limit, and the layout between two items inside a
// item, around the array and after it (where the two-half scan splits).
func seedsBoard() []string {
	rec := func(body string) string { return `{"version":1,"items":[` + body + `]}` }
	var out []string
	for _, r := range []string{
		`{"dispatchId":9223372036854775807}`, `{"dispatchId":9223372036854775808}`, `{"dispatchId":0}`, `{"dispatchId":-0}`,
		`{"dispatchId":1e2}`, `{"dispatchId":1.0}`, `{"dispatchId":"1"}`, `{"dispatchId":null}`, `{"dispatchId":null,"dispatchId":1}`,
		`{"dispatchId":1,"dispatchId":null}`, `{"dispatchId":1,"dispatchid":2}`, `{"DispatchId":1}`, `{"dispatchId":1,"Title":"a"}`,
		`{"dispatchId":1,"title":"\ud800"}`, `{"dispatchId":1,"title":"\ud83d\ude00"}`, "{\"dispatchId\":1,\"title\":\"\xff\"}",
		`{"dispatchId":1,"title":"a","title":"b"}`, `{"dispatchId":1,"title":null}`, `{"dispatchId":1,"addedAt":1}`,
		`{"dispatchId":1,"x":1e999}`, `{"dispatchId":1,"x":{"a":1,"a":2}}`, `{"dispatchId":1,"x":[` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + `]}`,
		`{"dispatchId":1},{"dispatchId":1}`, `{"dispatchId":1},`, `{}`, `1`, `null`,
	} {
		out = append(out, rec(r))
	}
	sep := "},\n    {"
	out = append(out,
		"\ufeff"+`{"version":1,"items":[]}`, `{"version":1,"items":[]}x`, `{"version":1,"items":[]}}`,
		`{"version":1.0,"items":[]}`, `{"version":10,"items":[]}`, `{"version":1,"version":1,"items":[]}`,
		`{"version":1,"items":[{"dispatchId":1}],"items":[{"dispatchId":2}]}`, `{"version":1,"items":null}`,
		`{"version":1,"items":[],"x":1}`, `{"version":1,"Items":[]}`, `{"items":[]}`, `{"version":null,"items":[]}`,
		`{"version":1,"items":[{"dispatchId":1}`+sep+`"dispatchId":2}]}`,
		`{"version":1,"items":[{"dispatchId":1,"x":[{}`+sep+`}]}`+sep+`"dispatchId":2}]}`,
		`{"version":1,"items":[{"dispatchId":1}`+sep+`"dispatchId":2}]`+sep+`}`,
		`{"items":[{"dispatchId":1}`+sep+`"dispatchId":2}],"version":1`+sep+`}`,
		`{"version":1,"items":[{"dispatchId":1,"title":"a`+sep+`b"}]}`,
	)
	return out
}
