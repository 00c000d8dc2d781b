// Package termsafe is the one escaper of pa's output: nothing that acts on
// a terminal (C0 and DEL, C1 U+0080-U+009F, the bidirectional and format
// controls that reorder what is shown: U+061C, U+200E, U+200F,
// U+202A-U+202E, U+2066-U+2069) and nothing else that does not print is
// ever written raw. One rule decides which characters are escaped, and
// how (a Go escape: \x1b, \n, \u200b; a byte that is not UTF-8 as \xff),
// for every line and for JSON:
//
//   - [Escape] is for message text (an error's words, a path given on the
//     command line): only those characters change, so a Windows path or a
//     quoted field name stays readable.
//   - [Value] is for a value read from disk that a line shows in quotes (a
//     lock's hostname and acquiredAt, a lock or claim name, an agent): the
//     same, and backslashes and double quotes too, so the value cannot end
//     its quotes; [Cap] is [Value] capped for display (the spec's
//     capForDisplay).
//   - [EscapeJSON] is for JSON text: the same characters, as \uXXXX, so the
//     values stay the same.
package termsafe

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
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

// Escape writes each character of s that does not print (every [Unsafe]
// one among them; a space prints) as a Go escape (\x1b, \n, \u202e), and
// each byte that is not UTF-8 as \xNN; everything else is unchanged.
func Escape(s string) string { return escape(s, false) }

// Value escapes a value read from disk for a terminal as [Escape] does, and
// its backslashes and double quotes too (\\, \"), so that a value shown
// in quotes cannot end them. Other printable text is unchanged.
func Value(s string) string { return escape(s, true) }

// raw reports whether r is written as it is: it prints (unicode.IsPrint,
// which takes the ASCII space and no other space). Every [Unsafe]
// character is not raw.
func raw(r rune) bool { return unicode.IsPrint(r) }

// escape is [Escape], and [Value] when quoted is set.
func escape(s string, quoted bool) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if !clean || !raw(r) || quoted && (r == '\\' || r == '"') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case quoted && (r == '\\' || r == '"'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case raw(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// EscapeJSON takes JSON text from encoding/json (valid UTF-8, C0 already
// escaped) and writes each other character that [Escape] would escape as
// \uXXXX (a pair of them beyond U+FFFF). They can only be inside strings
// (JSON's own syntax is ASCII), where \uXXXX is the same character: the
// text stays valid JSON with the same values.
func EscapeJSON(b []byte) []byte {
	if !utf8.Valid(b) {
		return b
	}
	clean := true
	for _, r := range string(b) {
		if r >= 0x7f && !raw(r) {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	var out strings.Builder
	for _, r := range string(b) {
		switch {
		case r < 0x7f || raw(r):
			out.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return []byte(out.String())
}

// displayCap and displayKeep are the spec's display cap (capForDisplay): a
// value longer than 32 characters is shown as its first 29 and "...".
const (
	displayCap  = 32
	displayKeep = 29
)

// Cap returns s escaped by [Value] and, when that is longer than 32
// characters, cut to its first 29 and "..." (spec: The lock file and the
// names beside it). Display only: files and commands keep values whole.
func Cap(s string) string {
	s = Value(s)
	if utf8.RuneCountInString(s) <= displayCap {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == displayKeep {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String() + "..."
}
