package jsonscan

import (
	"encoding/binary"
	"math"
)

// MaxDepth is how deeply arrays and objects may nest inside a value that
// [Scanner.Skip] skips; deeper input is "not sure" (encoding/json itself
// allows 10000).
const MaxDepth = 64

// Scanner reads Data from Pos on. Its methods skip the JSON whitespace
// (space, tab, newline, carriage return) before what they read, and leave
// Pos just after it; when one returns ok false, Pos is undefined and the
// document should go to the exact parser.
type Scanner struct {
	// Data is the whole document; it is never changed.
	Data []byte
	// Pos is the offset of the next byte to read.
	Pos int
}

// space skips JSON whitespace.
func (s *Scanner) space() {
	d, i := s.Data, s.Pos
	for i < len(d) {
		if c := d[i]; c > ' ' || c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	s.Pos = i
}

// Peek returns the next byte after whitespace without reading it, or 0 at
// the end of Data.
func (s *Scanner) Peek() byte {
	s.space()
	if s.Pos < len(s.Data) {
		return s.Data[s.Pos]
	}
	return 0
}

// Byte reads the byte c (after whitespace): '{', '}', '[', ']', ',' or ':'.
// It returns false, reading nothing, when the next byte is another.
func (s *Scanner) Byte(c byte) bool {
	if s.Peek() != c {
		return false
	}
	s.Pos++
	return true
}

// Literal reads the bytes lit exactly as they are, with no whitespace
// skipped first: a fast way through a layout known in advance (the
// structure and whitespace between values, as an encoder writes them). It
// returns false, reading nothing, when Data does not go on with lit.
func (s *Scanner) Literal(lit string) bool {
	if len(s.Data)-s.Pos < len(lit) || !equal(s.Data[s.Pos:s.Pos+len(lit)], lit) {
		return false
	}
	s.Pos += len(lit)
	return true
}

// equal reports whether d is lit (of the same length): eight bytes at a
// time, the last eight overlapping the word before them, with no call
// (the layouts Literal compares are 6 to 24 bytes long).
func equal(d []byte, lit string) bool {
	n := len(lit)
	if n < 8 || len(d) != n {
		return string(d) == lit
	}
	for i := 0; i+8 <= n; i += 8 {
		if binary.LittleEndian.Uint64(d[i:]) != word(lit[i:]) {
			return false
		}
	}
	return binary.LittleEndian.Uint64(d[n-8:]) == word(lit[n-8:])
}

// word is the first eight bytes of w, little-endian.
func word(w string) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// End reports whether nothing but JSON whitespace is left.
func (s *Scanner) End() bool {
	s.space()
	return s.Pos == len(s.Data)
}

// plain[c] is true for the bytes a string may hold as they are and that
// need no decoding: ASCII from the space up, but '"' and '\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the offset of the first byte from i on that is not
// plain, or len(d): eight bytes at a time while it can (a test of the eight
// bytes as one word), then byte by byte.
func plainRun(d []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(d); i += 8 {
		x := binary.LittleEndian.Uint64(d[i:])
		q, b := x^(ones*'"'), x^(ones*'\\')
		// The high bit of a byte is set in each term where it is below
		// 0x20, is '"', is '\\', or is above 0x7f (only ever where some byte
		// is: the borrows run upwards from a byte that is).
		if ((x-ones*0x20)&^x|(q-ones)&^q|(b-ones)&^b|x)&highs != 0 {
			break
		}
	}
	for i < len(d) && plain[d[i]] {
		i++
	}
	return i
}

// Key reads an object key that is plain (printable ASCII, no escape) and
// the ':' after it, and returns the key's bytes without the quotes (a slice
// of Data). Any other key is ok false: encoding/json matches keys to fields
// without regard to case, folding some non-ASCII letters (the Kelvin sign,
// the long s) into ASCII ones, which only the exact parser decides.
func (s *Scanner) Key() (key []byte, ok bool) {
	if s.Peek() != '"' {
		return nil, false
	}
	start := s.Pos + 1
	i := plainRun(s.Data, start)
	if i == len(s.Data) || s.Data[i] != '"' {
		return nil, false
	}
	s.Pos = i + 1
	if !s.Byte(':') {
		return nil, false
	}
	return s.Data[start:i], true
}

// Plain reads, with no whitespace skipped first, a string that holds only
// plain bytes (from the space to 0x7f, but '"' and '\'), and returns its
// value: the bytes between the quotes (a slice of Data). Anything else (a
// string with an escape or a byte above 0x7f, whitespace first, another
// value) is ok false with Pos as it was; [Scanner.String] reads it.
func (s *Scanner) Plain() (value []byte, ok bool) {
	d, start := s.Data, s.Pos+1
	if s.Pos >= len(d) || d[s.Pos] != '"' {
		return nil, false
	}
	i := plainRun(d, start)
	if i == len(d) || d[i] != '"' {
		return nil, false
	}
	s.Pos = i + 1
	return d[start:i], true
}

// String reads a JSON string and returns it as it is in Data, quotes
// included. plain is true when it holds no escape and no byte above 0x7e,
// so its value is raw[1:len(raw)-1] as it is; otherwise only a decoder
// (encoding/json, which also replaces invalid UTF-8) gives its value.
func (s *Scanner) String() (raw []byte, isPlain, ok bool) {
	if s.Peek() != '"' {
		return nil, false, false
	}
	d := s.Data
	start := s.Pos
	i := start + 1
	isPlain = true
	for {
		i = plainRun(d, i)
		if i == len(d) {
			return nil, false, false
		}
		switch c := d[i]; {
		case c == '"':
			s.Pos = i + 1
			return d[start : i+1], isPlain, true
		case c < 0x20:
			return nil, false, false // a control character: not JSON
		case c == '\\':
			isPlain = false
			if i+1 == len(d) {
				return nil, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || !hex(d[i+2]) || !hex(d[i+3]) || !hex(d[i+4]) || !hex(d[i+5]) {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		default: // above 0x7f: taken as they are, decoded by the parser
			isPlain = false
			i++
		}
	}
}

func hex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Null reads the literal null.
func (s *Scanner) Null() bool { return s.literal("null") }

func (s *Scanner) literal(word string) bool {
	s.space()
	return s.Literal(word)
}

// Int reads an integer literal (-?(0|[1-9][0-9]*)) that fits an int and is
// not followed by a fraction or an exponent, and returns its value. A
// number such as 1e2 or 1.0 (which encoding/json refuses for an int), one
// beyond the ints, or anything that is not a number is ok false.
func (s *Scanner) Int() (n int, ok bool) {
	s.space()
	d := s.Data
	i := s.Pos
	neg := i < len(d) && d[i] == '-'
	if neg {
		i++
	}
	start := i
	var u uint64
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		u = u*10 + uint64(d[i]-'0')
		i++
		if i-start > 19 { // more digits than any int has (and than a uint64 holds)
			return 0, false
		}
	}
	switch {
	case i == start, d[start] == '0' && i-start > 1: // no digit, or a leading zero
		return 0, false
	case i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E'):
		return 0, false
	case !neg && u > math.MaxInt, neg && u > uint64(math.MaxInt)+1:
		return 0, false
	}
	s.Pos = i
	if neg {
		return int(-u), true // -u wraps to the two's complement of u, which fits
	}
	return int(u), true
}

// number reads any JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *Scanner) number() bool {
	d := s.Data
	i := s.Pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = digits(d, i)
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return false
		}
		i = j
	}
	s.Pos = i
	return true
}

func digits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// Skip reads any one JSON value (object, array, string, number, true,
// false, null), checking its whole grammar, with arrays and objects nested
// at most [MaxDepth] deep.
func (s *Scanner) Skip() bool { return s.skip(MaxDepth) }

func (s *Scanner) skip(depth int) bool {
	switch c := s.Peek(); {
	case c == '{':
		if depth == 0 {
			return false
		}
		s.Pos++
		if s.Byte('}') {
			return true
		}
		for {
			if _, _, ok := s.String(); !ok || !s.Byte(':') || !s.skip(depth-1) {
				return false
			}
			if !s.Byte(',') {
				return s.Byte('}')
			}
		}
	case c == '[':
		if depth == 0 {
			return false
		}
		s.Pos++
		if s.Byte(']') {
			return true
		}
		for {
			if !s.skip(depth - 1) {
				return false
			}
			if !s.Byte(',') {
				return s.Byte(']')
			}
		}
	case c == '"':
		_, _, ok := s.String()
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}
