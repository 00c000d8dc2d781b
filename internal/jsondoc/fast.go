package jsondoc

import (
	"encoding/json"

	"github.com/pa-toolkit/pa/internal/jsonscan"
)

// This file is the fast path, the one seam between the plain path
// (plain.go, encoding/json and its duplicate-key check) and what makes an append scale with the
// file (bench: Growth). Everything in it may say "not sure" (ok false),
// never an error: the caller then takes the plain path.
//
// Each part is needed by a goal of bench/RESULTS.md, measured on 2 shared
// cores (go run . -only growth, the part turned off and on in one run):
//
//   - The scan and the splice: needed by Growth, both goals (at 100k
//     records, time at most 3x writing the spawn-log once, peak memory at
//     most 4x its size). With them off (every open parses with
//     encoding/json and encodes the whole file): 1.25 s, 55.6x writing
//     once, 146 MiB (7.68x the file). With them on: 66.6 to 114 ms (3.0x
//     to 5.2x on that loaded machine; 2.90x in RESULTS.md), 40.2 MiB
//     (2.11x).
//   - The split read of a large array in two halves (scanArray): needed by
//     Growth's time goal. The whole open was within the noise with it off
//     (61.8 to 109 ms, against 66.6 to 114 ms on, seven rounds each,
//     alternating), so it was measured in the process: the scan of the
//     100k-record spawn-log (19.1 MiB) takes 17 to 22 ms with one reader,
//     10 to 12.7 ms with two; of the board (13.2 MiB), 10.4 to 13.2 ms
//     against 8.8 to 9.9 ms. About 8 ms of the 66 ms open, or 0.37 of the
//     ratio to the 21.7 ms write: what keeps RESULTS.md's 2.90x under 3x.

// scanned is a document read by the fast path.
type scanned[E any] struct {
	// next is the header's integer as read.
	next int
	// bounds are how many elements there are and their bytes as in the
	// file, from the first element's '{' to the last one's '}' (Start ==
	// End when there is none).
	bounds
	// elems is the rest of what scan took from the elements.
	elems elems[E]
}

// elems is what scan takes from the elements besides their bounds.
type elems[E any] struct {
	// collect is whether to keep each element and its bytes, and find the
	// key to look for (both set before the elements are read).
	collect bool
	find    int
	// maxKey is the largest key; found is whether an element has the key
	// find.
	maxKey int
	found  bool
	// list and raw are the elements and each one's bytes (slices of the
	// data), only when collect.
	list []E
	raw  []json.RawMessage
}

// The keys of the header, by their bit.
const (
	keyVersion = 1 << iota
	keyNext
	keyArray
)

// scan reads the common shape of a document of f by hand and reports ok
// false for anything else, never deciding an error itself (parsePlain
// does). The common shape is one object with the keys "version" (the
// integer f.Version), f.Next if the format has one (an integer literal) and
// f.Array, each once, spelt exactly, with nothing but JSON whitespace after
// it; the array is of objects, each with a plain key f.Fields[0] (an
// integer that f.CheckKey takes), and in which every plain key equal to a
// field's name but for case is that field exactly, once, with a value of
// its kind (an integer literal, or a string or null); any other key is
// skipped with its value checked by the whole grammar (jsonscan). Whenever
// scan says ok, parsePlain accepts data with the same next integer and
// elements (FuzzFastPath).
//
// With collect false it gives only the next integer, N, the elements'
// bounds, the largest key and whether an element has the key find,
// allocating nothing.
func scan[E any](f *Format[E], data []byte, collect bool, find int) (scanned[E], bool) {
	return scanSplit(f, data, collect, find, splitMinBytes)
}

// scanSplit is scan, with the elements read by two goroutines at once when
// splitMin bytes or more are left at the array's start (and collect is
// false): see scanArray.
func scanSplit[E any](f *Format[E], data []byte, collect bool, find, splitMin int) (scanned[E], bool) {
	f.layout()
	s := jsonscan.Scanner{Data: data}
	var out scanned[E]
	seen, ok := s.Object(func(key []byte) (int, bool) {
		switch {
		case string(key) == "version":
			v, ok := s.Int()
			return keyVersion, ok && v == f.Version
		case f.Next != "" && string(key) == f.Next:
			var ok bool
			out.next, ok = s.Int()
			return keyNext, ok
		case string(key) == f.Array:
			return keyArray, scanArray(f, &s, &out, collect, find, splitMin)
		}
		return 0, false // unknown (refused), or a case variant: the plain path decides
	})
	want := keyVersion | keyArray
	if f.Next != "" {
		want |= keyNext
	}
	if !ok || !s.End() || seen != want {
		return out, false
	}
	return out, true
}

// scanArray reads the array into out (see scan). With splitMin bytes or
// more left, and collect false, it reads it in two halves at once, split
// where the layout between two elements is found past the middle
// (splitElems); anything else, the split not sure included, and
// the array is read by one reader. Either way the result is one reader's.
func scanArray[E any](f *Format[E], s *jsonscan.Scanner, out *scanned[E], collect bool, find, splitMin int) bool {
	if !s.Byte('[') {
		return false
	}
	if s.Byte(']') {
		return true
	}
	out.elems.collect, out.elems.find = collect, find
	if !collect && len(s.Data)-s.Pos >= splitMin {
		run := func(s *jsonscan.Scanner, e *bounds, into *elems[E], stop int) (bool, bool) {
			return scanRun(f, s, e, into, stop)
		}
		if e, es, end, ok := splitElems(s.Data, s.Pos, "}"+elemSep+"{", out.elems, run, joinElems[E]); ok {
			out.bounds, out.elems, s.Pos = e, es, end
			return true
		}
		// not sure: read it again, with one reader
	}
	_, ok := scanRun(f, s, &out.bounds, &out.elems, -1)
	return ok
}

// scanRun reads elements from s.Pos on into e and es, each followed by ','
// and the next or by the array's ']' (read too: ok); with stop at 0 or
// more it also stops, ended true and ok, where an element ends exactly at
// stop (s.Pos == stop, before the ','), going past stop or reaching the ']'
// first not ok (as splitElems wants its run): each element's key
// into the largest and found, and when collecting the element and its
// bytes.
func scanRun[E any](f *Format[E], s *jsonscan.Scanner, e *bounds, es *elems[E], stop int) (ended, ok bool) {
	var v Values // one for every element: cleared only when collecting
	for {
		s.Peek() // to the element's '{'
		begin := s.Pos
		if !scanElem(f, s, &v, es.collect) {
			return false, false
		}
		if e.N == 0 {
			e.Start = begin
		}
		e.N++
		e.End = s.Pos
		key := v.Ints[0]
		es.maxKey = max(es.maxKey, key)
		es.found = es.found || key == es.find
		if es.collect {
			es.list = append(es.list, f.From(v))
			es.raw = append(es.raw, s.Data[begin:s.Pos:s.Pos])
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

// joinElems returns what the first half of a split read took with the
// second's put in (not collecting: the largest key and found).
func joinElems[E any](first, second elems[E]) elems[E] {
	first.maxKey = max(first.maxKey, second.maxKey)
	first.found = first.found || second.found
	return first
}

// scanElem reads one element of the common shape (see scan) into v: its
// key, and when collecting all its fields (v cleared first; otherwise the
// fields but the key are left as they are). An element laid out as encode
// writes it is read along that layout (the same grammar and checks, with
// the keys and whitespace compared as one run of bytes each); any other is
// read key by key.
func scanElem[E any](f *Format[E], s *jsonscan.Scanner, v *Values, collect bool) bool {
	begin := s.Pos
	if collect {
		*v = Values{}
	}
	laid := true
	for i, fd := range f.Fields {
		if !s.Literal(f.lits[i]) || !value(s, fd, v, i, collect) {
			laid = false
			break
		}
	}
	if laid && s.Literal(elemEnd) && f.CheckKey(v.Ints[0]) == nil {
		return true
	}
	s.Pos = begin
	if collect {
		*v = Values{}
	}
	return scanElemByKey(f, s, v, collect)
}

// value reads the value of field fd, number i, into v.
func value(s *jsonscan.Scanner, fd Field, v *Values, i int, collect bool) bool {
	if fd.Int {
		n, ok := s.Int()
		v.Ints[i] = n
		return ok
	}
	var dst *string
	if collect {
		dst = &v.Strs[i]
	}
	return s.StringValue(dst)
}

// scanElemByKey reads one element of the common shape key by key.
func scanElemByKey[E any](f *Format[E], s *jsonscan.Scanner, v *Values, collect bool) bool {
	if !s.Byte('{') || s.Byte('}') { // an empty element has no key: the plain path refuses it
		return false
	}
	seen := 0
	for {
		key, ok := s.Key()
		if !ok {
			return false
		}
		i := fieldOf(f, key)
		switch {
		case i >= 0:
			if !value(s, f.Fields[i], v, i, collect) {
				return false
			}
			if seen&(1<<i) != 0 {
				return false // a duplicate field: encoding/json keeps the last one
			}
			seen |= 1 << i
		case i == variant:
			return false // a case variant of a field: the plain path decides
		default:
			if !s.Skip() { // a field this format does not know: kept, not read
				return false
			}
		}
		if !s.Byte(',') {
			break
		}
	}
	if !s.Byte('}') || seen&1 == 0 || f.CheckKey(v.Ints[0]) != nil {
		return false
	}
	return true
}

// variant is what fieldOf returns for a case variant of a field's name.
const variant = -2

// fieldOf returns the index of the field whose name is the plain key,
// variant when it is one but for ASCII case (the only folding a plain key
// can have), or -1.
func fieldOf[E any](f *Format[E], key []byte) int {
	for i, fd := range f.Fields {
		if string(key) == fd.Name {
			return i
		}
	}
	for _, fd := range f.Fields {
		if jsonscan.EqualFold(key, fd.Name) {
			return variant
		}
	}
	return -1
}

// splice returns, in parts, the document that holds the elements of data
// (as s read them) and then elem, with the header's integer next: a new
// head, the old elements' bytes as they are in data (a slice of it: no
// copy), and elem indented as encode indents it, then the trailer. For a
// document encode wrote, the result is byte for byte what encode writes
// with elem added (TestSpliceIsEncode in the formats); for any other the
// old elements keep their bytes verbatim.
func splice[E any](f *Format[E], data []byte, s scanned[E], elem E, next int) [][]byte {
	head := f.newHead(next)
	// encode marshals each element compact, then indents the whole
	// document (json.MarshalIndent): the same as indenting the element
	// with the prefix of its depth.
	body, err := json.MarshalIndent(elem, "    ", "  ")
	if err != nil {
		panic(err) // a format's elements are strings and ints: they always marshal
	}
	if s.N == 0 {
		return [][]byte{head, append(body, trailer...)}
	}
	tail := make([]byte, 0, len(elemSep)+len(body)+len(trailer))
	tail = append(append(append(tail, elemSep...), body...), trailer...)
	return [][]byte{head, data[s.Start:s.End], tail}
}
