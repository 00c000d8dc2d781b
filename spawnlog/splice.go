package spawnlog

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The document as encode writes it, around its records: two-space indent,
// each record indented by four spaces, a final newline.
const (
	headVersion = "{\n  \"version\": "
	headNextID  = ",\n  \"nextId\": "
	headRecords = ",\n  \"records\": [\n    "
	recordSep   = ",\n    "
	trailer     = "\n  ]\n}\n"
)

// nextFree returns ErrNoIDLeft (with next) when next is the largest int:
// giving it would leave no id after it (next+1 wraps around).
func nextFree(next int) error {
	if next == math.MaxInt {
		return fmt.Errorf("nextId is %d, the largest integer: %w", next, ErrNoIDLeft)
	}
	return nil
}

// splice returns, in parts, the document that holds the records of data
// (as s read them) and then rec, with nextId next: a new head, the old
// records' bytes as they are in data (a slice of it: no copy), and rec
// indented as encode indents it, then the trailer. For a document encode
// wrote, the result is byte for byte what encode writes for the log with
// rec appended (TestSpliceIsEncode); for any other the old records keep
// their bytes verbatim.
func splice(data []byte, s scanned, rec Record, next int) [][]byte {
	head := make([]byte, 0, len(headVersion)+len(headNextID)+len(headRecords)+24)
	head = append(head, headVersion...)
	head = strconv.AppendInt(head, Version, 10)
	head = append(head, headNextID...)
	head = strconv.AppendInt(head, int64(next), 10)
	head = append(head, headRecords...)
	// encode marshals each record compact, then indents the whole document
	// (json.MarshalIndent): the same as indenting the record with the
	// prefix of its depth.
	body, err := json.MarshalIndent(rec, "    ", "  ")
	if err != nil {
		panic(err) // strings and ints always marshal
	}
	if s.N == 0 {
		return [][]byte{head, append(body, trailer...)}
	}
	tail := make([]byte, 0, len(recordSep)+len(body)+len(trailer))
	tail = append(append(append(tail, recordSep...), body...), trailer...)
	return [][]byte{head, data[s.Start:s.End], tail}
}
