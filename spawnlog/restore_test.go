package spawnlog

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The spawn-log's restorer gives the log before its dead writer's own
// record: every earlier record, byte for byte, and the nextId that writer
// read (its record's id), ranked by it; a temp file that does not parse,
// or holds only the writer's record, restores nothing.
func TestRestorerLeavesOutTheDeadWritersOwnRecord(t *testing.T) {
	l, err := Parse("", []byte(`{"version":1,"nextId":4,"records":[{"id":1,"title":"a","x":[1, 2]},{"id":2,"title":"b"},{"id":3,"title":"mine"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	temp := encode(4, l.raw)
	content, rank, ok := restorer(temp)
	if !ok || rank != 3 {
		t.Fatalf("restorer = %q, %d, %v; want the log before record 3, ranked 3", content, rank, ok)
	}
	got, err := Parse("", content)
	if err != nil || got.NextID != 3 || len(got.Records) != 2 || got.Records[0].ID != 1 || got.Records[1].ID != 2 {
		t.Fatalf("restored %q = %+v, %v; want records 1 and 2 and nextId 3", content, got, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, got.raw[0]); err != nil || compact.String() != `{"id":1,"title":"a","x":[1,2]}` {
		t.Errorf("record 1 restored as %s; want it whole, its unknown field kept", got.raw[0])
	}
	// The rank and the restored nextId are the writer's record's id, not
	// the count of records nor the highest earlier id plus one: ids 1, 2
	// and the writer's 5 restore records 1 and 2 with nextId 5, ranked 5.
	content, rank, ok = restorer([]byte(`{"version":1,"nextId":6,"records":[{"id":1},{"id":2},{"id":5,"title":"mine"}]}`))
	if got, err := Parse("", content); !ok || rank != 5 || err != nil || got.NextID != 5 || len(got.Records) != 2 {
		t.Errorf("restorer over ids 1, 2, 5 = %q, %d, %v; want records 1 and 2 with nextId 5, ranked 5", content, rank, ok)
	}
	for _, bad := range []string{
		`{"version":1,"nextId":2,"records":[{"id":1,"title":"mine"}]}`,     // only the writer's own
		`{"version":1,"nextId":4,"records":[{"id":1},{"id":2},{"id":3,"ti`, // torn
		`{"version":1,"nextId":9,"records":[{"id":5},{"id":2}]}`,           // not an append's shape
	} {
		if content, _, ok := restorer([]byte(bad)); ok {
			t.Errorf("restorer(%s) = %q; want nothing restored", bad, content)
		}
	}
}
