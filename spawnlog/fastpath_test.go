package spawnlog

import (
	"bytes"
	"encoding/json"
	"github.com/pa-toolkit/pa/internal/jsonscan"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// canonical are logs as pa writes them (encode): what the fast path must
// take, and the splice must continue byte for byte.
func canonical() []Log {
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

// FuzzFastPath is the differential test of the fast path: on any bytes,
// Parse (the hand-written scan first) and parseExact (encoding/json alone)
// agree, on the error and its message too; whatever the scan takes, the
// exact parse takes with the same next id and records, in both of the
// scan's modes; and the splice of an append onto it reads back, exactly and
// fast, as those records and the new one.
// Its seeds are what encode writes and the hand-written edges of
// handSeeds.
func FuzzFastPath(f *testing.F) {
	for _, l := range canonical() {
		f.Add(l.encode())
	}
	for _, h := range handSeeds() {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "agents/a/spawn-log.json"
		exact, exactErr := parseExact(name, data)
		got, err := Parse(name, data)
		if (err == nil) != (exactErr == nil) || err != nil && err.Error() != exactErr.Error() {
			t.Fatalf("%q: Parse = %v; parseExact = %v", data, err, exactErr)
		}
		if err == nil {
			sameLog(t, data, got, exact)
		}
		s, ok := scan(data, true)
		lean, leanOK := scan(data, false)
		if ok != leanOK {
			t.Fatalf("%q: scan collecting says %v, without collecting %v", data, ok, leanOK)
		}
		if split, splitOK := scanSplit(data, false, 0); splitOK != leanOK || splitOK && !reflect.DeepEqual(split, lean) {
			t.Fatalf("%q: the scan split in two halves = %+v, %v; one reader %+v, %v", data, split, splitOK, lean, leanOK)
		}
		if !ok {
			return
		}
		if exactErr != nil {
			t.Fatalf("%q: the fast path takes what parseExact refuses: %v", data, exactErr)
		}
		if lean.nextID != exact.NextID || lean.N != len(exact.Records) || lean.Start != s.Start || lean.End != s.End || lean.list != nil {
			t.Fatalf("%q: scan without collecting = %+v; collecting %+v; exact %+v", data, lean, s, exact)
		}
		if lean.N > 0 && (data[lean.Start] != '{' || data[lean.End-1] != '}') {
			t.Fatalf("%q: the records' bytes %q are not from the first '{' to the last '}'", data, data[lean.Start:lean.End])
		}
		if nextFree(lean.nextID) != nil {
			return
		}
		rec := Record{ID: lean.nextID, Agent: "a", Title: "<new> & \"one\"", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 7, Hostname: "h"}
		doc := bytes.Join(splice(data, lean, rec, lean.nextID+1), nil)
		back, err := parseExact("again", doc)
		if err != nil || back.NextID != lean.nextID+1 || !slices.Equal(back.Records, append(slices.Clone(exact.Records), rec)) {
			t.Fatalf("%q: the splice %q reads back as %+v, %v; want the records and %+v", data, doc, back, err, rec)
		}
		if again, ok := scan(doc, false); !ok || again.N != lean.N+1 {
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
		t.Fatalf("%q: Parse = %+v; parseExact = %+v", data, got, want)
	}
	for i := range got.raw {
		var a, b bytes.Buffer
		if json.Compact(&a, got.raw[i]) != nil || json.Compact(&b, want.raw[i]) != nil || a.String() != b.String() {
			t.Fatalf("%q: record %d kept as %q; parseExact keeps %q", data, i, got.raw[i], want.raw[i])
		}
	}
}

// The splice of an append onto a document encode wrote is byte for byte
// what encode writes for the log with the record appended (titles with <,
// > and &, which json escapes, an empty records array, many records), and
// the old records are a slice of the bytes read, not a copy.
func TestSpliceIsEncode(t *testing.T) {
	news := []Record{
		{Agent: "demo", Title: "a <b> & c", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 9, Hostname: "h"},
		{Agent: "", Title: "", OpenedAt: "", PID: 0, Hostname: "\u2029\x7f"},
	}
	for i, l := range canonical() {
		data := l.encode()
		for _, rec := range news {
			s, ok := scan(data, false)
			if !ok {
				t.Fatalf("log %d: the fast path does not take what encode wrote:\n%s", i, data)
			}
			next := l
			next.Records, next.raw = slices.Clone(l.Records), slices.Clone(l.raw)
			want, err := next.appendRecord(rec)
			if err != nil {
				t.Fatal(err)
			}
			rec.ID = s.nextID
			parts := splice(data, s, rec, s.nextID+1)
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
func TestFastPathTakesTheCommonShape(t *testing.T) {
	fast := []string{
		`{"version":1,"nextId":2,"records":[{"id":1}]}`,
		" \r\n\t{ \"records\" : [ ] , \"nextId\" : -3 , \"version\" : 1 } \n",
		`{"version":1,"nextId":9,"records":[{"id":1,"title":null,"pid":-0,"x":[{"y":"\u00e9\n"},1e5,true,null],"hostname":"\u00e9"}]}`,
		// Laid out as encode writes it up to a field it does not write:
		// read key by key from the record's start.
		"{\"version\":1,\"nextId\":9,\"records\":[{\n      \"id\": 1,\n      \"agent\": \"a\",\n      \"title\": \"t\",\n      \"openedAt\": \"o\",\n      \"pid\": 2,\n      \"hostname\": \"h\",\n      \"later\": 1\n    }]}",
	}
	slow := []string{
		`{"version":1,"records":[{"id":1}]}`,                         // no nextId
		`{"Version":1,"nextId":2,"records":[{"id":1}]}`,              // a case variant
		`{"version":1,"nextId":2,"records":[{"ID":1}]}`,              // a case variant in a record
		`{"version":1,"nextId":2,"records":[{"id":1,"id":2}]}`,       // a duplicate
		`{"version":1,"nextId":2,"records":[],"records":[{"id":1}]}`, // a duplicate at the top
		"{\"version\":1,\"nextId\":2,\"recordſ\":[{\"id\":1}]}",      // the long s folds to s
		"{\"version\":1,\"nextId\":2,\"records\":[{\"id\":1,\"hostname\":\"a\",\"hoſtname\":\"b\"}]}",
		`{"version":1,"nextId":2,"records":[{"i\u0064":1}]}`,       // an escaped key
		`{"version":1,"nextId":null,"records":[{"id":1}]}`,         // a null nextId
		`{"version":1,"nextId":2,"records":[{"id":1,"pid":null}]}`, // a null int
		`{"version":1,"nextId":2,"records":[{"id":1,"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]}`,
	}
	for _, doc := range append(fast, slow...) {
		if _, err := parseExact("x", []byte(doc)); err != nil {
			t.Fatalf("%q: parseExact = %v; want it accepted", doc, err)
		}
		_, ok := scan([]byte(doc), false)
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
func TestScanSplitIsOneReader(t *testing.T) {
	data := benchLog(2000)
	one, ok := scanSplit(data, false, len(data)+1)
	if !ok || one.N != 2000 {
		t.Fatalf("one reader: %+v, %v", one, ok)
	}
	if got, ok := scanSplit(data, false, 0); !ok || !reflect.DeepEqual(got, one) {
		t.Fatalf("two halves: %+v, %v; one reader %+v", got, ok, one)
	}
	for _, at := range []int{len(data) / 4, len(data)/2 + 10, len(data) * 3 / 4} {
		bad := bytes.Clone(data)
		i := at + bytes.Index(bad[at:], []byte(`"title": "`)) + len(`"title": "`)
		bad[i] = 0x01 // a control character in a title: not JSON
		if got, ok := scanSplit(bad, false, 0); ok {
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
		want, wantOK := scanSplit(odd, false, len(odd)+1)
		if got, ok := scanSplit(odd, false, 0); ok != wantOK || !reflect.DeepEqual(got, want) {
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
func TestScanSplitInsideARecordFallsBack(t *testing.T) {
	data := benchLog(2000)
	mid := len(data) / 2
	nested := []byte("\"later\": [{\"a\": 1}" + recordSep + "{\"b\": 2}],\n      \"hostname\": ")
	around := bytes.ReplaceAll(data[mid-3000:mid+3000], []byte(`"hostname": `), nested)
	odd := append(append(bytes.Clone(data[:mid-3000]), around...), data[mid+3000:]...)
	at := jsonscan.Split(odd, bytes.IndexByte(odd, '[')+1, "}"+recordSep+"{")
	if !bytes.HasPrefix(odd[at:], []byte(recordSep+"{\"b\"")) {
		t.Fatalf("the split at %d is not inside a record (%q): the test does not test the fallback", at, odd[at:at+20])
	}
	want, wantOK := scanSplit(odd, false, len(odd)+1)
	if got, ok := scanSplit(odd, false, 0); !wantOK || !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("two halves %+v, %v; one reader %+v, %v", got, ok, want, wantOK)
	}
}
