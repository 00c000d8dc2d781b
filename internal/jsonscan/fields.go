package jsonscan

import "encoding/json"

// EqualFold reports whether the plain key is word but for ASCII case: the
// only folding encoding/json can apply to a plain key when it matches it
// to a field. A key for which EqualFold is true but that is not the field's
// name exactly is for the exact parser to read.
func EqualFold(key []byte, word string) bool {
	if len(key) != len(word) {
		return false
	}
	for i := range len(key) {
		x, y := key[i], word[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Object reads an object (its '{' next, after whitespace) whose keys are
// all plain ([Scanner.Key]), each key's value by field (called with s.Pos
// just after the ':'), which returns the key's bit, 0 for a key whose value
// it only checked, or ok false (not sure: so is Object). A bit met twice is
// not ok: a duplicate key, of which encoding/json keeps the last value, is
// for the exact parser. It returns the bits of the keys met (0 for {}).
//
// field is a closure over s, not a function taking s: so neither s nor
// what field keeps into escapes to the heap.
func (s *Scanner) Object(field func(key []byte) (bit int, ok bool)) (seen int, ok bool) {
	if !s.Byte('{') {
		return 0, false
	}
	if s.Byte('}') {
		return 0, true
	}
	for {
		key, ok := s.Key()
		if !ok {
			return 0, false
		}
		bit, ok := field(key)
		if !ok || seen&bit != 0 {
			return 0, false
		}
		seen |= bit
		if !s.Byte(',') {
			return seen, s.Byte('}')
		}
	}
}

// StringValue reads the value of a field of type string: a string, or null
// (which leaves the field as it is, as encoding/json does). When dst is not
// nil the value is stored in it, decoded exactly as encoding/json decodes
// it (a plain string as it is; one with an escape or a byte above 0x7e by
// encoding/json itself, which also replaces invalid UTF-8). Any other value
// is ok false.
func (s *Scanner) StringValue(dst *string) bool {
	if v, ok := s.Plain(); ok { // the common case, with no whitespace before it
		if dst != nil {
			*dst = string(v)
		}
		return true
	}
	if s.Peek() == 'n' {
		return s.Null()
	}
	raw, isPlain, ok := s.String()
	switch {
	case !ok:
		return false
	case dst == nil:
		return true
	case isPlain:
		*dst = string(raw[1 : len(raw)-1])
		return true
	}
	var v string // not dst itself: it would escape to the heap, and with it its whole struct, on every call
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	*dst = v
	return true
}
