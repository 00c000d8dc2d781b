// Package fuzzseed holds what the fuzz targets of the parsers (the lock
// record, the spawn-log, the board) share: the hostile inputs each is
// seeded with besides its own, and the check that a message is one
// printable line. Only tests import it.
package fuzzseed

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hostile are inputs that no parser of the lock's files may accept or
// panic on: JSON that is not an object, nothing, control and invalid
// bytes, and nesting deep enough to exhaust a recursive parser.
var Hostile = []string{
	`[]`, `null`, ``,
	"\x00\xff\x1b[2J", "\x00\xff\x1b[2J\x80\x07",
	strings.Repeat("[", 100000), strings.Repeat("{\"a\":", 50000),
}

// Printable reports whether s holds nothing a terminal should not be
// shown raw: valid UTF-8 with no control or unprintable character but the
// ASCII space, so one line.
func Printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
