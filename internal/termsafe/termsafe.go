// Package termsafe keeps the characters that act on a terminal out of pa's
// output: C0 and DEL, C1 (U+0080-U+009F) and the bidirectional and format
// controls that reorder what is shown (U+061C, U+200E, U+200F,
// U+202A-U+202E, U+2066-U+2069). It is the one place output is escaped:
//
//   - [Escape] is for message text (an error's words, a path given on the
//     command line), where it changes nothing else: no quotes or
//     backslashes are escaped, so a Windows path or a quoted field name
//     stays readable.
//   - [Value] is for a value read from disk (a lock's hostname and
//     acquiredAt, a lock or claim name, an agent): stricter, it also
//     escapes every other character that does not print, backslashes and
//     double quotes, so a value shown in quotes cannot end them; [Cap] is
//     [Value] capped for display (the spec's capForDisplay).
//   - [EscapeJSON] is for JSON text, where the values stay the same.
package termsafe

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
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

// Value escapes a value read from disk for a terminal: control and format
// characters (C0, DEL, C1 and the bidirectional controls, so no escape
// sequence is ever written raw) and every other character that does not
// print (unicode.IsPrint; a space prints), invalid UTF-8, backslashes and
// double quotes are written as Go escapes (\x1b, \n, \u0085, \u202e, \\,
// \"), once. Other printable text is unchanged.
func Value(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\\' || r == '"' || !unicode.IsPrint(r) && r != ' ' {
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
			b.WriteString(`\x` + strconv.FormatInt(int64(s[i])>>4, 16) + strconv.FormatInt(int64(s[i])&15, 16))
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
