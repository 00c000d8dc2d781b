package spawnlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/pa-toolkit/pa/internal/jsondoc"
)

// Version is the version of the spawn-log document this package reads and
// writes.
const Version = 1

// Record is one dispatch in the spawn-log.
type Record struct {
	// ID is allocated under the lock from the log's nextId: distinct forever
	// within the agent's spawn-log, starting at 1.
	ID int `json:"id"`
	// Agent is the agent the dispatch was opened for.
	Agent string `json:"agent"`
	// Title is the dispatch's title as given (may be empty).
	Title string `json:"title"`
	// OpenedAt is when the record was made, ISO 8601 in UTC with
	// milliseconds (2026-11-29T15:42:59.123Z).
	OpenedAt string `json:"openedAt"`
	// PID and Hostname are the writer's process and host.
	PID int `json:"pid"`
	// Hostname is the writer's hostname, as its lock records it.
	Hostname string `json:"hostname"`
}

// Log is a parsed spawn-log.
type Log struct {
	// NextID is the id the next record gets (at least 1, and above every
	// id in Records).
	NextID int
	// Records are the dispatches in the order they were appended.
	Records []Record

	// raw keeps each record's bytes as read, so that a rewrite never drops
	// a field this version does not know.
	raw []json.RawMessage
}

// document is the file's JSON shape.
type document struct {
	Version *int              `json:"version"`
	NextID  *int              `json:"nextId"`
	Records []json.RawMessage `json:"records"`
}

// format is the spawn-log's document for jsondoc: the fields in the order
// encode writes them.
var format = &jsondoc.Format[Record]{
	Version: Version, Next: "nextId", Array: "records", Elem: "record",
	Fields: []jsondoc.Field{
		{Name: "id", Int: true}, {Name: "agent"}, {Name: "title"},
		{Name: "openedAt"}, {Name: "pid", Int: true}, {Name: "hostname"},
	},
	NewHeader: func() jsondoc.Header { return new(document) },
	From: func(v jsondoc.Values) Record {
		return Record{ID: v.Ints[0], Agent: v.Strs[1], Title: v.Strs[2], OpenedAt: v.Strs[3], PID: v.Ints[4], Hostname: v.Strs[5]}
	},
	Key:      func(r Record) int { return r.ID },
	Corrupt:  func(name string, err error) error { return &CorruptError{Path: name, Err: err} },
	CheckKey: checkID,
}

// Parts gives the document's parts to jsondoc.
func (d *document) Parts() (version, next *int, elems []json.RawMessage) {
	return d.Version, d.NextID, d.Records
}

// checkID says why id cannot be a record's id: below 1, or the largest
// integer (so that no next id could follow it).
func checkID(id int) error {
	switch {
	case id < 1:
		return errors.New("no integer id of at least 1")
	case id == math.MaxInt:
		// id+1 would wrap around to a negative id.
		return fmt.Errorf("id %d is the largest integer, so no id can follow it", id)
	}
	return nil
}

// Parse reads the bytes of the spawn-log name. It returns a *CorruptError
// (naming name) when they are not one JSON object of a known version with a
// "records" array of objects that each have an integer "id" of at least 1
// and below the largest integer (so that a next id can follow it). A
// missing nextId is taken as one more than the highest id. The Log refers to
// data (each record's bytes, kept for a rewrite): do not change data while
// the Log is in use.
//
// The semantics are encoding/json's (keys matched to fields without regard
// to case, the last of duplicate keys kept, no unknown key at the top
// level), but for a key of the top level given twice (two "records" arrays,
// say), which is refused as corrupt: a rewrite would keep only the last
// (jsondoc.DuplicateKeyError). See internal/jsondoc, whose fast path reads
// the common shape.
func Parse(name string, data []byte) (Log, error) {
	d, err := jsondoc.Parse(format, name, data)
	if err != nil {
		return Log{}, err
	}
	return fromDoc(d), nil
}

// fromDoc is the Log of a parsed document: its next id is above every id
// and at least the document's nextId and 1.
func fromDoc(d jsondoc.Doc[Record]) Log {
	return Log{NextID: max(d.MaxKey+1, d.Next, 1), Records: d.Elems, raw: d.Raw}
}

// encode writes the log as its document, indented, with a final newline:
// the spawn-log's one write (jsondoc's splice writes the same bytes for a
// record appended to a document encode wrote).
func (l *Log) encode() []byte { return encode(l.NextID, l.raw) }

// encodeDoc is encode for jsondoc.Edit.Append.
func encodeDoc(d jsondoc.Doc[Record]) []byte { return encode(d.Next, d.Raw) }

// encode writes the document with nextId next and the records raw.
func encode(next int, raw []json.RawMessage) []byte {
	v := Version
	if raw == nil {
		raw = []json.RawMessage{}
	}
	b, err := json.MarshalIndent(document{Version: &v, NextID: &next, Records: raw}, "", "  ")
	if err != nil {
		panic(err) // raw records were parsed or marshalled above
	}
	return append(b, '\n')
}
