package board

import (
	"encoding/json"
	"strconv"
)

// The document as encode writes it, around its items: two-space indent,
// each item indented by four spaces, a final newline.
const (
	headVersion = "{\n  \"version\": "
	headItems   = ",\n  \"items\": [\n    "
	itemSep     = ",\n    "
	trailer     = "\n  ]\n}\n"
)

// splice returns, in parts, the board that holds the items of data (as s
// read them) and then it: a new head, the old items' bytes as they are in
// data (a slice of it: no copy), and it indented as encode indents it,
// then the trailer. For a board encode wrote, the result is byte for byte
// what encode writes with it added (TestSpliceIsEncode); for any other the
// old items keep their bytes verbatim. The caller makes sure it is not on
// the board already (s.found).
func splice(data []byte, s scanned, it Item) [][]byte {
	head := make([]byte, 0, len(headVersion)+len(headItems)+4)
	head = append(head, headVersion...)
	head = strconv.AppendInt(head, Version, 10)
	head = append(head, headItems...)
	body, err := json.MarshalIndent(it, "    ", "  ")
	if err != nil {
		panic(err) // strings and ints always marshal
	}
	if s.N == 0 {
		return [][]byte{head, append(body, trailer...)}
	}
	tail := make([]byte, 0, len(itemSep)+len(body)+len(trailer))
	tail = append(append(append(tail, itemSep...), body...), trailer...)
	return [][]byte{head, data[s.Start:s.End], tail}
}
