package spawnlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/internal/fuzzseed"
)

// FuzzParse: whatever bytes a spawn-log holds, Parse never panics; it
// refuses with a *CorruptError whose message is one printable line, or it
// accepts a log whose next id is above every id, and which its own encoding
// gives back whole (no record is lost by a rewrite).
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"nextId":3,"records":[{"id":1,"agent":"a","title":"t"},{"id":2,"extra":{"kept":true}}]}`,
		`{"version":1,"records":[]}`, `{"version":2,"records":[]}`, `{"version":1}`, `{"records":[]}`,
		`{"version":1,"records":[{"id":0}]}`, `{"version":1,"records":[{"id":9223372036854775807}]}`,
		`{"version":1,"records":[{"id":1.5}]}`, `{"version":1,"records":[{"id":"1"}]}`,
		`{"version":1,"records":[],"unknown\u001b[2J":1}`, `{"version":1,"records":[]} trailing`,
	} {
		f.Add([]byte(seed))
	}
	for _, seed := range fuzzseed.Hostile {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		log, err := Parse("agents/a/spawn-log.json", data)
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
		if log.NextID < 1 {
			t.Fatalf("Parse(%q): next id %d", data, log.NextID)
		}
		for _, r := range log.Records {
			if r.ID < 1 || r.ID >= log.NextID {
				t.Fatalf("Parse(%q): record id %d with next id %d", data, r.ID, log.NextID)
			}
		}
		again, err := Parse("again", log.encode())
		if err != nil || again.NextID != log.NextID || !slices.Equal(again.Records, log.Records) {
			t.Fatalf("Parse(%q) = %+v, whose encoding parses as %+v, %v", data, log, again, err)
		}
	})
}

// TestAppendIsEncode: the splice of an append onto a spawn-log encode
// wrote (jsondoc's fast path) is byte for byte what encode writes for the
// log with the record appended, and the old records are a slice of the
// bytes read, in place.
func TestAppendIsEncode(t *testing.T) {
	recs := []Record{
		{Agent: "demo", Title: "first", OpenedAt: "2026-11-29T15:42:59.123Z", PID: 42, Hostname: "box"},
		{Agent: "demo", Title: "<b>fish & chips</b>", OpenedAt: "2026-11-29T15:43:00.000Z", PID: 43, Hostname: "box"},
		{Agent: "é", Title: "line\nbreak \"quoted\" \\ \u2028 \x01 \u00e9 \U0001F600", PID: -1, Hostname: "\u2029\x7f"},
	}
	var data []byte
	exists := false
	for i, r := range recs {
		rec := r
		parts, err := appendParts("s", data, exists, &rec)
		if err != nil || rec.ID != i+1 {
			t.Fatalf("append %d: id %d, %v", i, rec.ID, err)
		}
		want := Log{NextID: 1}
		for _, r := range recs[:i+1] {
			raw, err := json.Marshal(Record{ID: want.NextID, Agent: r.Agent, Title: r.Title, OpenedAt: r.OpenedAt, PID: r.PID, Hostname: r.Hostname})
			if err != nil {
				t.Fatal(err)
			}
			want.raw = append(want.raw, raw)
			want.NextID++
		}
		got := bytes.Join(parts, nil)
		if !bytes.Equal(got, want.encode()) {
			t.Fatalf("append %d: the splice writes\n%s\nencode writes\n%s", i, got, want.encode())
		}
		if i > 0 && (len(parts) != 3 || &parts[1][0] != &data[bytes.IndexByte(data, '[')+6]) {
			t.Errorf("append %d: the old records are not the bytes read, in place", i)
		}
		data, exists = got, true
	}
}
