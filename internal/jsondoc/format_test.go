package jsondoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// The tests read two formats shaped as the spawn-log's and the board's
// (their packages' own formats are these, field for field): a log with a
// next id, and a board without one.

// Record is a spawn-log record.
type Record struct {
	ID       int    `json:"id"`
	Agent    string `json:"agent"`
	Title    string `json:"title"`
	OpenedAt string `json:"openedAt"`
	PID      int    `json:"pid"`
	Hostname string `json:"hostname"`
}

// Item is a board item.
type Item struct {
	DispatchID int    `json:"dispatchId"`
	Title      string `json:"title"`
	AddedAt    string `json:"addedAt"`
}

type logDocument struct {
	Version *int              `json:"version"`
	NextID  *int              `json:"nextId"`
	Records []json.RawMessage `json:"records"`
}

func (d *logDocument) Parts() (version, next *int, elems []json.RawMessage) {
	return d.Version, d.NextID, d.Records
}

type boardDocument struct {
	Version *int              `json:"version"`
	Items   []json.RawMessage `json:"items"`
}

func (d *boardDocument) Parts() (version, next *int, elems []json.RawMessage) {
	return d.Version, nil, d.Items
}

// corruptError is the formats' error for a document that does not parse.
type corruptError struct {
	path string
	err  error
}

func (e *corruptError) Error() string { return e.path + " does not parse: " + e.err.Error() }
func (e *corruptError) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *corruptError) Is(target error) bool { return target == ErrCorrupt }

// ErrCorrupt is matched by every error of the formats' Corrupt.
var ErrCorrupt = errors.New("does not parse")

func corrupt(name string, err error) error { return &corruptError{path: name, err: err} }

var logFormat = &Format[Record]{
	Version: 1, Next: "nextId", Array: "records", Elem: "record",
	Fields: []Field{
		{Name: "id", Int: true}, {Name: "agent"}, {Name: "title"},
		{Name: "openedAt"}, {Name: "pid", Int: true}, {Name: "hostname"},
	},
	NewHeader: func() Header { return new(logDocument) },
	From: func(v Values) Record {
		return Record{ID: v.Ints[0], Agent: v.Strs[1], Title: v.Strs[2], OpenedAt: v.Strs[3], PID: v.Ints[4], Hostname: v.Strs[5]}
	},
	Key:     func(r Record) int { return r.ID },
	Corrupt: corrupt,
	CheckKey: func(id int) error {
		switch {
		case id < 1:
			return errors.New("no integer id of at least 1")
		case id == math.MaxInt:
			return fmt.Errorf("id %d is the largest integer, so no id can follow it", id)
		}
		return nil
	},
}

var boardFormat = &Format[Item]{
	Version: 1, Array: "items", Elem: "item",
	Fields:    []Field{{Name: "dispatchId", Int: true}, {Name: "title"}, {Name: "addedAt"}},
	NewHeader: func() Header { return new(boardDocument) },
	From:      func(v Values) Item { return Item{DispatchID: v.Ints[0], Title: v.Strs[1], AddedAt: v.Strs[2]} },
	Key:       func(it Item) int { return it.DispatchID },
	Corrupt:   corrupt,
	CheckKey: func(id int) error {
		if id < 1 {
			return errors.New("no integer dispatchId of at least 1")
		}
		return nil
	},
}

// Log is a parsed log, as the spawn-log keeps it.
type Log struct {
	NextID  int
	Records []Record
	raw     []json.RawMessage
}

func logOf(d Doc[Record]) Log {
	return Log{NextID: max(d.MaxKey+1, d.Next, 1), Records: d.Elems, raw: d.Raw}
}

// parseLog is the spawn-log's Parse, parseExactLog the plain path alone.
func parseLog(name string, data []byte) (Log, error) {
	d, err := Parse(logFormat, name, data)
	if err != nil {
		return Log{}, err
	}
	return logOf(d), nil
}

func parseExactLog(name string, data []byte) (Log, error) {
	d, err := parsePlain(logFormat, data)
	if err != nil {
		return Log{}, corrupt(name, err)
	}
	return logOf(d), nil
}

// appendRecord gives r the next id and adds it.
func (l *Log) appendRecord(r Record) (Record, error) {
	if l.NextID == math.MaxInt {
		return Record{}, errors.New("no id left")
	}
	r.ID = l.NextID
	l.NextID++
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	l.Records = append(l.Records, r)
	l.raw = append(l.raw, b)
	return r, nil
}

func (l *Log) encode() []byte { return encodeLog(Doc[Record]{Next: l.NextID, Raw: l.raw}) }

// encodeLog is the spawn-log's encode.
func encodeLog(d Doc[Record]) []byte {
	v, next, raw := 1, d.Next, d.Raw
	if raw == nil {
		raw = []json.RawMessage{}
	}
	b, err := json.MarshalIndent(logDocument{Version: &v, NextID: &next, Records: raw}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// nextID is the next id of a log the fast path read.
func nextID(s scanned[Record]) int { return max(s.elems.maxKey+1, s.next, 1) }

// Board is a parsed board, as the board keeps it.
type Board struct {
	Items []Item
	raw   []json.RawMessage
}

func parseBoard(name string, data []byte) (Board, error) {
	d, err := Parse(boardFormat, name, data)
	if err != nil {
		return Board{}, err
	}
	return Board{Items: d.Elems, raw: d.Raw}, nil
}

func parseExactBoard(name string, data []byte) (Board, error) {
	d, err := parsePlain(boardFormat, data)
	if err != nil {
		return Board{}, corrupt(name, err)
	}
	return Board{Items: d.Elems, raw: d.Raw}, nil
}

func (b Board) Has(id int) bool {
	for _, it := range b.Items {
		if it.DispatchID == id {
			return true
		}
	}
	return false
}

func (b *Board) add(it Item) {
	if b.Has(it.DispatchID) {
		return
	}
	raw, err := json.Marshal(it)
	if err != nil {
		panic(err)
	}
	b.Items = append(b.Items, it)
	b.raw = append(b.raw, raw)
}

func (b Board) encode() []byte { return encodeBoard(Doc[Item]{Raw: b.raw}) }

// encodeBoard is the board's encode.
func encodeBoard(d Doc[Item]) []byte {
	v, raw := 1, d.Raw
	if raw == nil {
		raw = []json.RawMessage{}
	}
	b, err := json.MarshalIndent(boardDocument{Version: &v, Items: raw}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// The separators between two elements as encode writes them.
const (
	recordSep = elemSep
	itemSep   = elemSep
)

// benchLog is a log of n records as pa writes them, with titles and times
// like the growth measure's (bench: Growth).
func benchLog(n int) []byte {
	l := Log{NextID: 1}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		r := Record{Agent: "demo", Title: "dispatch " + strconv.Itoa(i+1) + ": review the change",
			OpenedAt: start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z"), PID: 40000 + i%1000, Hostname: "build-host"}
		if _, err := l.appendRecord(r); err != nil {
			panic(err)
		}
	}
	return l.encode()
}

// benchBoard is a board of n items as pa writes them.
func benchBoard(n int) []byte {
	var b Board
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		it := Item{DispatchID: i + 1, Title: "dispatch " + strconv.Itoa(i+1) + ": review the change",
			AddedAt: start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z")}
		raw, err := json.Marshal(it)
		if err != nil {
			panic(err)
		}
		b.Items, b.raw = append(b.Items, it), append(b.raw, raw) // not add: its look for the id is quadratic
	}
	return b.encode()
}
