package main

import (
	"strconv"
	"testing"
)

// listValue shows an ordinary value, quotes and backslashes included, as
// it is, and Go-quotes a value holding a character a terminal must not see
// raw, or one wrapped in double quotes, so that every field reads back as
// one value.
func TestListValue(t *testing.T) {
	for in, want := range map[string]string{
		`"q" back\slash`:     `"q" back\slash`,
		`C:\Users\a "b"`:     `C:\Users\a "b"`,
		`"`:                  `"`,
		``:                   ``,
		"é 日本":               "é 日本",
		"a\tb":               `"a\tb"`,
		"line\nnext":         `"line\nnext"`,
		"\x1b[31mred":        `"\x1b[31mred"`,
		"x\u202ey\x7f\u0085": `"x\u202ey\x7f\u0085"`,
		"bad\xff":            `"bad\xff"`,
		`"quoted"`:           `"\"quoted\""`,
		`a\tb` + "\t":        `"a\\tb\t"`,
	} {
		got := listValue(in)
		if got != want {
			t.Errorf("listValue(%q) = %s; want %s", in, got, want)
		}
		if got != in {
			if back, err := strconv.Unquote(got); err != nil || back != in {
				t.Errorf("listValue(%q) = %s, which reads back as %q (%v)", in, got, back, err)
			}
		}
	}
}
