package board

import (
	"encoding/json"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// scanned is a board read by the fast path.
type scanned struct {
	// Elems are how many items there are and their bytes as in the file,
	// from the first item's '{' to the last one's '}' (Start == End when
	// there is none).
	jsonscan.Elems
	// items is the rest of what scan took from the items.
	items
}

// items is what scan takes from the items besides their bounds.
type items struct {
	// collect is whether to keep each item and its bytes, and find the
	// dispatch id to look for (both set before the items are read).
	collect bool
	find    int
	// found is whether an item has the dispatch id find.
	found bool
	// list and raw are the items and each one's bytes (slices of the
	// data), only when collect.
	list []Item
	raw  []json.RawMessage
}

// scan is the fast path of Parse: it reads the common shape of a board by
// hand and reports ok false for anything else, never deciding an error
// itself (parseExact does). The common shape is one object with the keys
// "version" (the literal 1) and "items", each once, spelt exactly, with
// nothing but JSON whitespace after it; "items" is an array of objects,
// each with a plain key "dispatchId" (an integer of at least 1), and in
// which every plain key equal to a field of Item but for case is that field
// exactly, once, with a value of its type (an integer literal for
// dispatchId, a string or null for title and addedAt); any other key is
// skipped with its value checked by the whole grammar. Whenever scan says
// ok, parseExact accepts data with the same items (FuzzFastPath).
//
// With collect false it gives only N, the items' bounds and found (whether
// an item has the dispatch id find), allocating nothing.
func scan(data []byte, collect bool, find int) (scanned, bool) {
	return scanSplit(data, collect, find, jsonscan.SplitMin)
}

// scanSplit is scan, with the items read by two goroutines at once when
// splitMin bytes or more are left at the array's start (and collect is
// false): see scanItems.
func scanSplit(data []byte, collect bool, find, splitMin int) (scanned, bool) {
	s := jsonscan.Scanner{Data: data}
	var out scanned
	const keyVersion, keyItems = 1, 2
	seen, ok := s.Object(func(key []byte) (int, bool) {
		switch string(key) {
		case "version":
			return keyVersion, s.Byte('1') && (s.Peek() == ',' || s.Peek() == '}')
		case "items":
			return keyItems, scanItems(&s, &out, collect, find, splitMin)
		}
		return 0, false // unknown (refused), or a case variant: parseExact decides
	})
	if !ok || !s.End() || seen != keyVersion|keyItems {
		return out, false
	}
	return out, true
}

// scanItems reads the "items" array into out (see scan). With splitMin
// bytes or more left, and collect false, it reads it in two halves at once,
// as the spawn-log's scan does its records: split where the layout between
// two items is found past the middle (jsonscan.SplitElems); anything else,
// the split not sure included, and the array is read by one reader. Either
// way the result is one reader's.
func scanItems(s *jsonscan.Scanner, out *scanned, collect bool, find, splitMin int) bool {
	if !s.Byte('[') {
		return false
	}
	if s.Byte(']') {
		return true
	}
	out.collect, out.find = collect, find
	if !collect && len(s.Data)-s.Pos >= splitMin {
		if e, is, end, ok := jsonscan.SplitElems(s.Data, s.Pos, "}"+itemSep+"{", out.items, scanItemRun, joinItems); ok {
			out.Elems, out.items, s.Pos = e, is, end
			return true
		}
		// not sure: read it again, with one reader
	}
	_, ok := scanItemRun(s, &out.Elems, &out.items, -1)
	return ok
}

// scanItemRun reads items from s.Pos on into e and is, each followed by ','
// and the next or by the array's ']' (read too: ok); with stop at 0 or more
// it also stops, ended true and ok, where an item ends exactly at stop
// (s.Pos == stop, before the ','), going past stop or reaching the ']' first
// not ok (as jsonscan.SplitElems wants its run): whether one has the id
// looked for, and when collecting each item and its bytes.
func scanItemRun(s *jsonscan.Scanner, e *jsonscan.Elems, is *items, stop int) (ended, ok bool) {
	for {
		s.Peek() // to the item's '{'
		begin := s.Pos
		it, ok := scanItem(s, is.collect)
		if !ok {
			return false, false
		}
		if e.N == 0 {
			e.Start = begin
		}
		e.N++
		e.End = s.Pos
		is.found = is.found || it.DispatchID == is.find
		if is.collect {
			is.list = append(is.list, it)
			is.raw = append(is.raw, s.Data[begin:s.Pos:s.Pos])
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

// joinItems returns what the first half of a split read took with the
// second's put in (not collecting: whether either found the id).
func joinItems(first, second items) items {
	first.found = first.found || second.found
	return first
}

// The fields of Item, by their bit.
const (
	fieldDispatchID = 1 << iota
	fieldTitle
	fieldAddedAt
)

// The layout of an item as encode writes it, around its values.
const (
	layoutDispatchID = "{\n      \"dispatchId\": "
	layoutTitle      = ",\n      \"title\": "
	layoutAddedAt    = ",\n      \"addedAt\": "
	layoutEnd        = "\n    }"
)

// scanItem reads one item of the common shape (see scan). An item laid out
// as encode writes it is read along that layout (the same grammar and
// checks, with the keys and whitespace compared as one run of bytes each);
// any other is read key by key.
func scanItem(s *jsonscan.Scanner, collect bool) (Item, bool) {
	begin := s.Pos
	var it Item
	var ok bool
	if s.Literal(layoutDispatchID) {
		if it.DispatchID, ok = s.Int(); ok && it.DispatchID >= 1 &&
			s.Literal(layoutTitle) && s.StringValue(collectInto(&it.Title, collect)) &&
			s.Literal(layoutAddedAt) && s.StringValue(collectInto(&it.AddedAt, collect)) && s.Literal(layoutEnd) {
			return it, true
		}
	}
	s.Pos = begin
	return scanItemByKey(s, collect)
}

// scanItemByKey reads one item of the common shape key by key.
func scanItemByKey(s *jsonscan.Scanner, collect bool) (Item, bool) {
	var it Item
	if !s.Byte('{') || s.Byte('}') { // an empty item has no dispatchId: parseExact refuses it
		return it, false
	}
	seen := 0
	for {
		key, ok := s.Key()
		if !ok {
			return it, false
		}
		bit, str := 0, (*string)(nil)
		switch {
		case string(key) == "dispatchId":
			bit = fieldDispatchID
			if it.DispatchID, ok = s.Int(); !ok || it.DispatchID < 1 {
				return it, false
			}
		case string(key) == "title":
			bit, str = fieldTitle, &it.Title
		case string(key) == "addedAt":
			bit, str = fieldAddedAt, &it.AddedAt
		case jsonscan.EqualFold(key, "dispatchId"), jsonscan.EqualFold(key, "title"), jsonscan.EqualFold(key, "addedAt"):
			return it, false // a case variant of a field: parseExact decides
		default:
			if !s.Skip() { // a field this version does not know: kept, not read
				return it, false
			}
		}
		if str != nil && !s.StringValue(collectInto(str, collect)) {
			return it, false
		}
		if seen&bit != 0 {
			return it, false // a duplicate field: encoding/json keeps the last one
		}
		seen |= bit
		if !s.Byte(',') {
			break
		}
	}
	if !s.Byte('}') || seen&fieldDispatchID == 0 {
		return it, false
	}
	return it, true
}

// collectInto is dst when collect, else nil (the value checked, not kept).
func collectInto(dst *string, collect bool) *string {
	if collect {
		return dst
	}
	return nil
}
