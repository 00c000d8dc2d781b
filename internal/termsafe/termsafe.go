// Package termsafe keeps the characters that act on a terminal out of pa's
// output: C0 and DEL, C1 (U+0080-U+009F) and the bidirectional and format
// controls that reorder what is shown (U+061C, U+200E, U+200F,
// U+202A-U+202E, U+2066-U+2069). [Escape] is for message text, where it
// changes nothing else (no quotes or backslashes are escaped, so a Windows
// path or a quoted field name stays readable); [EscapeJSON] is for JSON
// text, where the values stay the same.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r is one of the characters no terminal should see
// raw.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Clean reports whether s is valid UTF-8 with no [Unsafe] character.
func Clean(s string) bool { return utf8.ValidString(s) && strings.IndexFunc(s, Unsafe) < 0 }

// Escape writes each [Unsafe] character of s, and each invalid UTF-8 byte,
// as a Go escape (\x1b, \u202e); everything else is unchanged.
func Escape(s string) string {
	if Clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// EscapeJSON takes JSON text from encoding/json (valid UTF-8, C0 already
// escaped) and writes each other [Unsafe] character in it as \uXXXX. They
// can only be inside strings (JSON's own syntax is ASCII), where \uXXXX is
// the same character: the text stays valid JSON with the same values.
func EscapeJSON(b []byte) []byte {
	if !utf8.Valid(b) || strings.IndexFunc(string(b), Unsafe) < 0 {
		return b
	}
	var out strings.Builder
	for _, r := range string(b) {
		if r >= 0x7f && Unsafe(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}
