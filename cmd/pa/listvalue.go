package main

import (
	"strconv"
	"strings"

	"github.com/pa-toolkit/pa/internal/termsafe"
)

// listValue is a value read from a spawn-log (agent, openedAt, title) as
// the plain output of dispatch list shows it, between tabs. A value that
// holds a character no terminal may see raw (C0 such as a tab or a
// newline, an escape sequence, DEL, C1, a bidirectional control:
// termsafe.Unsafe) or a byte that is not UTF-8, and a value that is
// itself wrapped in double quotes, is shown Go-quoted: in double quotes,
// with \t, \n, \x1b, \u202e for those characters and \" and \\ for
// quotes and backslashes (strconv.Quote; strconv.Unquote reads it back).
// Any other value, ordinary quotes and backslashes included, is shown as
// it is. So the output stays unambiguous: a field that starts and ends
// with a double quote is a quoted value, any other field is the value
// itself, and no field holds a tab or a newline.
func listValue(s string) string {
	if termsafe.Clean(s) && !(len(s) >= 2 && strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`)) {
		return s
	}
	return strconv.Quote(s)
}
