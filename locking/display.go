package locking

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// displayCap and displayKeep are the spec's display cap (capForDisplay): a
// value longer than 32 characters is shown as its first 29 and "...".
const (
	displayCap  = 32
	displayKeep = 29
)

// CapForDisplay returns s escaped by [DisplayValue] and, when that is longer
// than 32 characters, cut to its first 29 and "..." (spec: The lock file and
// the names beside it). Display only: files and commands keep values whole.
func CapForDisplay(s string) string {
	s = DisplayValue(s)
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

// DisplayValue escapes a value read from disk for a terminal: control and
// format characters (C0, DEL, C1 and the bidirectional controls, so no escape
// sequence is ever written raw), invalid UTF-8, backslashes and double quotes
// are written as Go escapes (\x1b, \n, \u0085, \u202e, \\, \"), once. Other
// printable text is unchanged.
func DisplayValue(s string) string {
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
