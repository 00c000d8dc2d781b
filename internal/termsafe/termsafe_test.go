package termsafe_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/internal/termsafe"
)

// The characters to escape: every one that does not print (C0, DEL, C1,
// the bidi controls among them) and bytes that are not UTF-8; nothing else
// (backslashes, quotes, other text) changes.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		`C:\Users\a "b"`:        `C:\Users\a "b"`,
		"a\x1b[31mb":            `a\x1b[31mb`,
		"a\x7fb\u0085c":         `a\x7fb\u0085c`,
		"x\u202ey\u2066z\u061c": `x\u202ey\u2066z\u061c`,
		"bad\xff":               `bad\xff`,
		"é 日本 \u200b\u00a0":     `é 日本 \u200b\u00a0`,
		"one\ntwo\tthree":       `one\ntwo\tthree`,
		"\ufffd😀":               "\ufffd😀",
	} {
		if got := termsafe.Escape(in); got != want {
			t.Errorf("Escape(%q) = %q; want %q", in, got, want)
		}
	}
}

// JSON text keeps its values, and no unsafe character is left raw in it.
func TestEscapeJSON(t *testing.T) {
	var unsafe []string
	for r := rune(0); r <= 0x206f; r++ {
		if termsafe.Unsafe(r) {
			unsafe = append(unsafe, string(r))
		}
	}
	for _, r := range []rune{0x7f, 0x80, 0x9f, 0x061c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069} {
		if !termsafe.Unsafe(r) {
			t.Errorf("Unsafe(%U) = false", r)
		}
	}
	value := map[string]string{"title": "t" + strings.Join(unsafe, "") + "é<>&\\\"", "k\u202e": "v"}
	b, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	out := termsafe.EscapeJSON(b)
	if strings.IndexFunc(string(out), termsafe.Unsafe) >= 0 {
		t.Errorf("EscapeJSON left an unsafe character raw: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["title"] != value["title"] || back["k\u202e"] != "v" {
		t.Errorf("EscapeJSON(%q) = %q, which reads back as %q (%v); want the same values", b, out, back, err)
	}
	if !strings.Contains(string(out), `\u202e`) || !strings.Contains(string(out), `\u007f`) || !strings.Contains(string(out), `\u0085`) {
		t.Errorf("EscapeJSON = %q; want \\u202e, \\u007f and \\u0085 in it", out)
	}
	// The characters Escape escapes, and only those, are escaped in JSON
	// too, a character beyond U+FFFF as a pair.
	for _, c := range []struct{ value, want string }{
		{"a\u200bb\u00a0", `"a\u200bb\u00a0"`},
		{"\U000e0001", `"\udb40\udc01"`},
		{"é 日本 😀\ufffd", "\"é 日本 😀\ufffd\""},
	} {
		b, err := json.Marshal(c.value)
		if err != nil {
			t.Fatal(err)
		}
		var back string
		out := termsafe.EscapeJSON(b)
		if string(out) != c.want || json.Unmarshal(out, &back) != nil || back != c.value {
			t.Errorf("EscapeJSON(%s) = %s (reads back as %q); want %s", b, out, back, c.want)
		}
	}
}

// A value read from disk is capped at 32 characters (29 and "..."), counted
// after it is escaped and in characters, not bytes.
func TestCap(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", 32), strings.Repeat("a", 32)},
		{strings.Repeat("a", 33), strings.Repeat("a", 29) + "..."},
		{strings.Repeat("é", 40), strings.Repeat("é", 29) + "..."},
		{strings.Repeat("é", 32), strings.Repeat("é", 32)},
		{"evil\x1b[2Jhost", `evil\x1b[2Jhost`},
		{"n\nt\tz\x00d\x7fc\u0085", `n\nt\tz\x00d\x7fc\u0085`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\\slash`},
	} {
		if got := termsafe.Cap(c.in); got != c.want {
			t.Errorf("Cap(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("\x1b", 255)
	if got := termsafe.Cap(long); utf8.RuneCountInString(got) != 32 || strings.ContainsRune(got, 0x1b) {
		t.Errorf("Cap of 255 ESC = %q, want 32 escaped characters", got)
	}
}

// Value escapes what Escape escapes, the same way, and backslashes and
// double quotes, once; other text is unchanged.
func TestValue(t *testing.T) {
	for in, want := range map[string]string{
		"plain host-1.example":  "plain host-1.example",
		`C:\Users\a "b"`:        `C:\\Users\\a \"b\"`,
		"a\x1b[31mb":            `a\x1b[31mb`,
		"a\x7fb\u0085c":         `a\x7fb\u0085c`,
		"x\u202ey\u2066z\u061c": `x\u202ey\u2066z\u061c`,
		"bad\xff":               `bad\xff`,
		"é 日本 \u200b\u00a0":     `é 日本 \u200b\u00a0`,
	} {
		if got := termsafe.Value(in); got != want {
			t.Errorf("Value(%q) = %q; want %q", in, got, want)
		}
	}
	for r := rune(0); r <= 0x206f; r++ {
		if termsafe.Unsafe(r) && strings.IndexFunc(termsafe.Value(string(r)), termsafe.Unsafe) >= 0 {
			t.Errorf("Value(%U) leaves it raw", r)
		}
		if in := string(r); r != '\\' && r != '"' && termsafe.Value(in) != termsafe.Escape(in) {
			t.Errorf("Value(%U) = %q but Escape = %q; want one rule", r, termsafe.Value(in), termsafe.Escape(in))
		}
	}
}
