package spawnlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pa-toolkit/pa/internal/jsonwords"
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

// The parse errors a *CorruptError wraps, besides encoding/json's.
var (
	errTrailing  = errors.New("data after the JSON object")
	errNoVersion = errors.New(`no "version"`)
	errNoRecords = errors.New(`no "records" array`)
)

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
// level). The common shape, as pa writes it, is read by a hand-written
// scan; anything else, and every error, is decided by encoding/json.
func Parse(name string, data []byte) (Log, error) {
	if s, ok := scan(data, true); ok {
		return Log{NextID: s.nextID, Records: s.list, raw: s.raw}, nil
	}
	return parseExact(name, data)
}

// parseExact is Parse by encoding/json alone: it decides every error and
// its message.
func parseExact(name string, data []byte) (Log, error) {
	corrupt := func(err error) (Log, error) { return Log{}, &CorruptError{Path: name, Err: err} }
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		// White space alone (or nothing) is empty, as the decoder would
		// say, but without its buffer taking a copy of all of it first.
		return corrupt(io.EOF)
	}
	var doc document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return corrupt(err)
	}
	if len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return corrupt(errTrailing) // even a lone '}', which dec.More does not see
	}
	if doc.Version == nil {
		return corrupt(errNoVersion)
	}
	if *doc.Version != Version {
		return corrupt(fmt.Errorf("unknown version %d (this pa knows %d)", *doc.Version, Version))
	}
	if doc.Records == nil {
		return corrupt(errNoRecords)
	}
	log := Log{raw: doc.Records}
	for i, raw := range doc.Records {
		var r Record
		if err := json.Unmarshal(raw, &r); err != nil {
			return corrupt(jsonwords.In(fmt.Sprintf("record %d", i), err))
		}
		if r.ID < 1 {
			return corrupt(fmt.Errorf("record %d: no integer id of at least 1", i))
		}
		if r.ID == math.MaxInt {
			// r.ID+1 would wrap around to a negative id.
			return corrupt(fmt.Errorf("record %d: id %d is the largest integer, so no id can follow it", i, r.ID))
		}
		log.Records = append(log.Records, r)
		log.NextID = max(log.NextID, r.ID+1)
	}
	if doc.NextID != nil {
		log.NextID = max(log.NextID, *doc.NextID)
	}
	log.NextID = max(log.NextID, 1)
	return log, nil
}

// appendRecord allocates the next id to r, adds it to the log and returns
// the record as added. It returns ErrNoIDLeft, and changes nothing, when
// NextID is the largest integer: NextID+1 would wrap around.
func (l *Log) appendRecord(r Record) (Record, error) {
	if err := nextFree(l.NextID); err != nil {
		return Record{}, err
	}
	r.ID = l.NextID
	l.NextID++
	b, err := json.Marshal(r)
	if err != nil {
		panic(err) // strings and ints always marshal
	}
	l.Records = append(l.Records, r)
	l.raw = append(l.raw, b)
	return r, nil
}

// encode writes the log as its document, indented, with a final newline.
func (l *Log) encode() []byte {
	v := Version
	next := l.NextID
	raw := l.raw
	if raw == nil {
		raw = []json.RawMessage{}
	}
	b, err := json.MarshalIndent(document{Version: &v, NextID: &next, Records: raw}, "", "  ")
	if err != nil {
		panic(err) // raw records were parsed or marshalled above
	}
	return append(b, '\n')
}
