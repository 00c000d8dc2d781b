package spawnlog

import (
	"encoding/json"
	"math"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// scanned is a spawn-log read by the fast path.
type scanned struct {
	// nextID is the next id, as Parse computes it.
	nextID int
	// Elems are how many records there are and their bytes as in the
	// file, from the first record's '{' to the last one's '}' (Start ==
	// End when there is none).
	jsonscan.Elems
	// records is the rest of what scan took from the records.
	records
}

// records is what scan takes from the records besides their bounds.
type records struct {
	// collect is whether to keep each record and its bytes (set before
	// the records are read).
	collect bool
	// maxID is the largest id.
	maxID int
	// list and raw are the records and each one's bytes (slices of the
	// data), only when collect.
	list []Record
	raw  []json.RawMessage
}

// The keys of the spawn-log's top-level object, by their bit.
const (
	keyVersion = 1 << iota
	keyNextID
	keyRecords
)

// scan is the fast path of Parse: it reads the common shape of a spawn-log
// by hand and reports ok false for anything else, never deciding an error
// itself (the exact parser does: see parseExact). The common shape is one
// object with the keys "version" (the literal 1), "nextId" (an integer
// literal) and "records", each once, spelt exactly, with nothing but JSON
// whitespace after it; "records" is an array of objects, each with a
// plain key "id" (an integer from 1 to below the largest int), and in which
// every plain key equal to a field of Record but for case is that field
// exactly, once, with a value of its type (an integer literal for id and
// pid, a string or null for the others); any other key is skipped with its
// value checked by the whole grammar (jsonscan). Whenever scan says ok,
// parseExact accepts data with the same next id and records (FuzzFastPath).
//
// With collect false it reads the same and gives only nextID, N and the
// records' bounds: what an append needs, allocating nothing.
func scan(data []byte, collect bool) (scanned, bool) {
	return scanSplit(data, collect, jsonscan.SplitMin)
}

// scanSplit is scan, with the records read by two goroutines at once when
// splitMin bytes or more are left at the array's start (and collect is
// false): see scanRecords.
func scanSplit(data []byte, collect bool, splitMin int) (scanned, bool) {
	s := jsonscan.Scanner{Data: data}
	var out scanned
	nextID := 0
	seen, ok := s.Object(func(key []byte) (int, bool) {
		switch string(key) {
		case "version":
			return keyVersion, s.Byte('1') && delim(s.Peek())
		case "nextId":
			var ok bool
			nextID, ok = s.Int()
			return keyNextID, ok
		case "records":
			return keyRecords, scanRecords(&s, &out, collect, splitMin)
		}
		return 0, false // unknown (refused), or a case variant: the exact parser decides
	})
	if !ok || !s.End() || seen != keyVersion|keyNextID|keyRecords {
		return out, false
	}
	out.nextID = max(out.maxID+1, nextID, 1)
	return out, true
}

// delim reports whether c may follow a value inside an object.
func delim(c byte) bool { return c == ',' || c == '}' }

// scanRecords reads the "records" array into out (see scan). With
// splitMin bytes or more left, and collect false, it reads it in two halves
// at once, split where the layout between two records is found past the
// middle (jsonscan.SplitElems); anything else, the split not sure
// included, and the array is read by one reader. Either way the result is
// one reader's.
func scanRecords(s *jsonscan.Scanner, out *scanned, collect bool, splitMin int) bool {
	if !s.Byte('[') {
		return false
	}
	if s.Byte(']') {
		return true
	}
	out.collect = collect
	if !collect && len(s.Data)-s.Pos >= splitMin {
		if e, rs, end, ok := jsonscan.SplitElems(s.Data, s.Pos, "}"+recordSep+"{", out.records, scanRecordRun, joinRecords); ok {
			out.Elems, out.records, s.Pos = e, rs, end
			return true
		}
		// not sure: read it again, with one reader
	}
	_, ok := scanRecordRun(s, &out.Elems, &out.records, -1)
	return ok
}

// scanRecordRun reads records from s.Pos on into e and rs, each followed by
// ',' and the next or by the array's ']' (read too: ok); with stop at 0 or
// more it also stops, ended true and ok, where a record ends exactly at stop
// (s.Pos == stop, before the ','), going past stop or reaching the ']' first
// not ok (as jsonscan.SplitElems wants its run): each record's id into the
// largest, and when collecting the record and its bytes.
func scanRecordRun(s *jsonscan.Scanner, e *jsonscan.Elems, rs *records, stop int) (ended, ok bool) {
	for {
		s.Peek() // to the record's '{'
		begin := s.Pos
		r, ok := scanRecord(s, rs.collect)
		if !ok {
			return false, false
		}
		if e.N == 0 {
			e.Start = begin
		}
		e.N++
		e.End = s.Pos
		rs.maxID = max(rs.maxID, r.ID)
		if rs.collect {
			rs.list = append(rs.list, r)
			rs.raw = append(rs.raw, s.Data[begin:s.Pos:s.Pos])
		}
		switch {
		case stop >= 0 && s.Pos == stop:
			return true, true
		case stop >= 0 && s.Pos > stop:
			return false, false
		}
		if !s.Byte(',') {
			return false, s.Byte(']') && stop < 0
		}
	}
}

// joinRecords returns what the first half of a split read took with the
// second's put in (not collecting: the largest id only).
func joinRecords(first, second records) records {
	first.maxID = max(first.maxID, second.maxID)
	return first
}

// The fields of Record, by their bit.
const (
	fieldID = 1 << iota
	fieldAgent
	fieldTitle
	fieldOpenedAt
	fieldPID
	fieldHostname
)

// The layout of a record as encode writes it, around its values.
const (
	layoutID       = "{\n      \"id\": "
	layoutAgent    = ",\n      \"agent\": "
	layoutTitle    = ",\n      \"title\": "
	layoutOpenedAt = ",\n      \"openedAt\": "
	layoutPID      = ",\n      \"pid\": "
	layoutHostname = ",\n      \"hostname\": "
	layoutEnd      = "\n    }"
)

// scanRecord reads one record of the common shape (see scan). A record laid
// out as encode writes it is read along that layout (the same grammar and
// checks, with the keys and whitespace compared as one run of bytes each);
// any other is read key by key.
func scanRecord(s *jsonscan.Scanner, collect bool) (Record, bool) {
	begin := s.Pos
	var r Record
	var ok bool
	if s.Literal(layoutID) {
		if r.ID, ok = s.Int(); ok && r.ID >= 1 && r.ID < math.MaxInt &&
			s.Literal(layoutAgent) && s.StringValue(collectInto(&r.Agent, collect)) &&
			s.Literal(layoutTitle) && s.StringValue(collectInto(&r.Title, collect)) &&
			s.Literal(layoutOpenedAt) && s.StringValue(collectInto(&r.OpenedAt, collect)) &&
			s.Literal(layoutPID) {
			if r.PID, ok = s.Int(); ok && s.Literal(layoutHostname) && s.StringValue(collectInto(&r.Hostname, collect)) && s.Literal(layoutEnd) {
				return r, true
			}
		}
	}
	s.Pos = begin
	return scanRecordByKey(s, collect)
}

// scanRecordByKey reads one record of the common shape key by key.
func scanRecordByKey(s *jsonscan.Scanner, collect bool) (Record, bool) {
	var r Record
	if !s.Byte('{') {
		return r, false
	}
	if s.Byte('}') {
		return r, false // no id: the exact parser refuses it
	}
	seen := 0
	for {
		key, ok := s.Key()
		if !ok {
			return r, false
		}
		bit, str := 0, (*string)(nil)
		switch {
		case string(key) == "id":
			bit = fieldID
			if r.ID, ok = s.Int(); !ok || r.ID < 1 || r.ID == math.MaxInt {
				return r, false
			}
		case string(key) == "pid":
			bit = fieldPID
			if r.PID, ok = s.Int(); !ok {
				return r, false
			}
		case string(key) == "agent":
			bit, str = fieldAgent, &r.Agent
		case string(key) == "title":
			bit, str = fieldTitle, &r.Title
		case string(key) == "openedAt":
			bit, str = fieldOpenedAt, &r.OpenedAt
		case string(key) == "hostname":
			bit, str = fieldHostname, &r.Hostname
		case foldsToField(key):
			return r, false // a case variant of a field: the exact parser decides
		default:
			if !s.Skip() { // a field this version does not know: kept, not read
				return r, false
			}
		}
		if str != nil && !s.StringValue(collectInto(str, collect)) {
			return r, false
		}
		if seen&bit != 0 {
			return r, false // a duplicate field: encoding/json keeps the last one
		}
		seen |= bit
		if !s.Byte(',') {
			break
		}
	}
	if !s.Byte('}') || seen&fieldID == 0 {
		return r, false
	}
	return r, true
}

// foldsToField reports whether the plain key is one of Record's fields but
// for ASCII case (the only folding a plain key can have).
func foldsToField(key []byte) bool {
	for _, f := range [...]string{"id", "agent", "title", "openedAt", "pid", "hostname"} {
		if jsonscan.EqualFold(key, f) {
			return true
		}
	}
	return false
}

// collectInto is dst when collect, else nil (the value checked, not kept).
func collectInto(dst *string, collect bool) *string {
	if collect {
		return dst
	}
	return nil
}
