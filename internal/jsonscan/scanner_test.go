package jsonscan

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// Skip accepts a document exactly when it is JSON (as encoding/json
// judges it), for documents that nest at most MaxDepth deep.
func FuzzSkip(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `{"a":[1,-0,0.5,1e2,1E+2,-1.5e-3,true,false,null,"x\u00e9\n"]}`, `"\ud800"`, "\"\xff\"",
		`01`, `1.`, `.5`, `-`, `1e`, `+1`, `[1,]`, `{"a"}`, `{"a":1,}`, `{1:2}`, `"\x"`, `"\u12"`, "\"a\tb\"",
		`tru`, `nul`, `[` + strings.Repeat(`[`, MaxDepth) + strings.Repeat(`]`, MaxDepth+1), ` {} `, "{}\v",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Scanner{Data: data}
		ok := s.Skip() && s.End()
		valid := json.Valid(data)
		if ok && !valid {
			t.Fatalf("Skip accepts %q, which is not JSON", data)
		}
		if !ok && valid && bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) <= MaxDepth {
			t.Fatalf("Skip refuses %q, which is JSON nested at most %d deep", data, MaxDepth)
		}
	})
}

// Int takes the integer literals that fit an int, and nothing encoding/json
// would refuse for an int.
func TestInt(t *testing.T) {
	good := map[string]int{
		"0": 0, "-0": 0, "7": 7, " \n\t\r42": 42, "-12": -12,
		strconv.Itoa(math.MaxInt): math.MaxInt, strconv.Itoa(math.MinInt): math.MinInt,
	}
	for in, want := range good {
		s := Scanner{Data: []byte(in + ",")}
		if n, ok := s.Int(); !ok || n != want || s.Data[s.Pos] != ',' {
			t.Errorf("Int(%q) = %d, %v at %d; want %d, stopping at the comma", in, n, ok, s.Pos, want)
		}
	}
	for _, in := range []string{
		"", "-", "01", "-01", "1.0", "1e2", "1E2", "1.5", "+1", "x", `"1"`, "null",
		"9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999", "00",
	} {
		s := Scanner{Data: []byte(in)}
		if n, ok := s.Int(); ok {
			t.Errorf("Int(%q) = %d, ok; want not ok", in, n)
		}
	}
}

// Key takes plain keys only; String tells a plain string from one that
// needs decoding.
func TestKeyAndString(t *testing.T) {
	for in, want := range map[string]string{`"id":`: "id", ` "a b" :`: "a b", `"":`: ""} {
		s := Scanner{Data: []byte(in)}
		if k, ok := s.Key(); !ok || string(k) != want {
			t.Errorf("Key(%q) = %q, %v; want %q", in, k, ok, want)
		}
	}
	for _, in := range []string{`"i\u0064":`, `"\u212a":`, "\"\u017f\":", `"id"`, `"id" 1`, `id:`, "\"a\x01\":"} {
		s := Scanner{Data: []byte(in)}
		if k, ok := s.Key(); ok {
			t.Errorf("Key(%q) = %q, ok; want not ok", in, k)
		}
	}
	for in, wantPlain := range map[string]bool{`"abc"`: true, `""`: true, `"a\nb"`: false, "\"é\"": false, "\"\x7f\"": true, "\"\x80\"": false, "\"abcdefgh\u00e9ijk\"": false, "\"abcdefghijklmnop\\\\\"": false, `"\u0041"`: false} {
		s := Scanner{Data: []byte(in)}
		raw, isPlain, ok := s.String()
		if !ok || string(raw) != in || isPlain != wantPlain {
			t.Errorf("String(%q) = %q, plain %v, %v; want it whole, plain %v", in, raw, isPlain, ok, wantPlain)
		}
	}
	for _, in := range []string{`"abc`, "\"a\nb\"", `"\q"`, `"\u12g4"`, `"\`, `abc`} {
		s := Scanner{Data: []byte(in)}
		if _, _, ok := s.String(); ok {
			t.Errorf("String(%q) ok; want not ok", in)
		}
	}
}

// Nesting deeper than MaxDepth is not sure, however valid.
func TestSkipDepth(t *testing.T) {
	deep := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	if s := (Scanner{Data: deep(MaxDepth)}); !s.Skip() || !s.End() {
		t.Errorf("Skip refuses %d nested arrays; want them taken", MaxDepth)
	}
	if s := (Scanner{Data: deep(MaxDepth + 1)}); s.Skip() {
		t.Errorf("Skip takes %d nested arrays; want not sure", MaxDepth+1)
	}
}

// EqualFold folds ASCII case only; StringValue reads a string or null and
// decodes it as encoding/json does.
func TestEqualFoldAndStringValue(t *testing.T) {
	for _, tc := range []struct {
		key, word string
		want      bool
	}{{"id", "id", true}, {"ID", "id", true}, {"nextID", "nextId", true}, {"ids", "id", false}, {"i", "id", false}, {"i\x00", "id", false}, {"[d", "{d", false}} {
		if got := EqualFold([]byte(tc.key), tc.word); got != tc.want {
			t.Errorf("EqualFold(%q, %q) = %v; want %v", tc.key, tc.word, got, tc.want)
		}
	}
	for in, want := range map[string]string{`"abc"`: "abc", `null`: "kept", `"a\u00e9\n"`: "a\u00e9\n", "\"\xff\"": "\ufffd", `"\ud800"`: "\ufffd"} {
		got := "kept"
		s := Scanner{Data: []byte(in)}
		if !s.StringValue(&got) || got != want || !s.End() {
			t.Errorf("StringValue(%q) = %q; want %q", in, got, want)
		}
		s = Scanner{Data: []byte(in)}
		if !s.StringValue(nil) || !s.End() {
			t.Errorf("StringValue(%q, nil) refused it", in)
		}
	}
	for _, in := range []string{`1`, `true`, `[]`, `{}`, `nul`, `"a`} {
		s := Scanner{Data: []byte(in)}
		if s.StringValue(nil) {
			t.Errorf("StringValue(%q) took it; want not ok", in)
		}
	}
}

// plainRun, eight bytes at a time, stops where the byte-by-byte rule does:
// at each byte that is not plain (a control character, '"', '\', 0x80 and
// above), wherever it is in a word, and at the end.
func TestPlainRun(t *testing.T) {
	for _, bad := range []byte{0x00, 0x01, 0x1f, '"', '\\', 0x80, 0xc3, 0xff} {
		for n := range 24 {
			for at := range n + 1 {
				d := bytes.Repeat([]byte("a~ !#[]}"), 3)[:n]
				d = append(d[:at:at], append([]byte{bad}, d[at:]...)...)
				want := 0
				for want < len(d) && plain[d[want]] {
					want++
				}
				for from := range min(at+1, 9) {
					if got := plainRun(d, from); got != want {
						t.Fatalf("plainRun(%q, %d) = %d; want %d", d, from, got, want)
					}
				}
			}
		}
	}
	if got := plainRun([]byte("abcdefghijklmnopq"), 0); got != 17 {
		t.Errorf("plainRun of 17 plain bytes = %d; want 17", got)
	}
}

// Plain takes a string of plain bytes only, right where Pos is, and gives
// its bytes; anything else leaves Pos where it was.
func TestPlain(t *testing.T) {
	for in, want := range map[string]string{`"abc",`: "abc", `""`: "", "\"\x7f~ \"": "\x7f~ ", `"abcdefghijklmnopqrstuvwxyz"`: "abcdefghijklmnopqrstuvwxyz"} {
		s := Scanner{Data: []byte(in)}
		if v, ok := s.Plain(); !ok || string(v) != want || s.Pos != len(want)+2 {
			t.Errorf("Plain(%q) = %q, %v at %d; want %q", in, v, ok, s.Pos, want)
		}
	}
	for _, in := range []string{` "a"`, `"a\nb"`, "\"é\"", "\"a\x01\"", `"abc`, `null`, ``, `"abcdefghijklmno\"`} {
		s := Scanner{Data: []byte(in)}
		if v, ok := s.Plain(); ok || s.Pos != 0 {
			t.Errorf("Plain(%q) = %q, %v at %d; want not ok at 0", in, v, ok, s.Pos)
		}
	}
}

// Literal, a word at a time, refuses a layout that differs in any one
// byte, at any length, and takes it whole.
func TestLiteral(t *testing.T) {
	const layout = ",\n      \"openedAt\": \"x\""
	for n := range len(layout) + 1 {
		lit := layout[:n]
		if s := (Scanner{Data: []byte(layout)}); !s.Literal(lit) || s.Pos != n {
			t.Fatalf("Literal(%q) refused the same bytes", lit)
		}
		for at := range n {
			d := []byte(layout)
			d[at] ^= 0x20
			if s := (Scanner{Data: d}); s.Literal(lit) || s.Pos != 0 {
				t.Fatalf("Literal(%q) took %q, one byte off at %d", lit, d[:n], at)
			}
		}
		if s := (Scanner{Data: []byte(layout[:max(n-1, 0)])}); n > 0 && s.Literal(lit) {
			t.Fatalf("Literal(%q) took a shorter document", lit)
		}
	}
}

// TestSkipDepthOfObjects: objects count towards MaxDepth as arrays do, alone
// and mixed with arrays (encoding/json refuses beyond 10000 levels of
// either, so an unbounded object depth would let the fast path take what
// the exact parser refuses).
func TestSkipDepthOfObjects(t *testing.T) {
	objects := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n-1) + `{}` + strings.Repeat(`}`, n-1))
	}
	mixed := func(n int) []byte {
		var b strings.Builder
		for i := range n {
			if i%2 == 0 {
				b.WriteString(`{"a":`)
			} else {
				b.WriteString(`[`)
			}
		}
		b.WriteString(`1`)
		for i := n - 1; i >= 0; i-- {
			if i%2 == 0 {
				b.WriteString(`}`)
			} else {
				b.WriteString(`]`)
			}
		}
		return []byte(b.String())
	}
	for _, c := range []struct {
		name string
		of   func(int) []byte
	}{{"objects", objects}, {"objects and arrays", mixed}} {
		if s := (Scanner{Data: c.of(MaxDepth)}); !s.Skip() || !s.End() {
			t.Errorf("Skip refuses %d nested %s; want them taken", MaxDepth, c.name)
		}
		if s := (Scanner{Data: c.of(MaxDepth + 1)}); s.Skip() {
			t.Errorf("Skip takes %d nested %s; want not sure", MaxDepth+1, c.name)
		}
		if s := (Scanner{Data: c.of(20000)}); s.Skip() {
			t.Errorf("Skip takes 20000 nested %s, which encoding/json refuses", c.name)
		}
	}
}

// TestStringEscapes: String takes exactly the escapes JSON has (\" \\ \/
// \b \f \n \r \t and \u with four hex digits), each as not plain, and
// refuses a backslash before any other byte, as encoding/json does.
func TestStringEscapes(t *testing.T) {
	for c := range 256 {
		in := []byte{'"', '\\', byte(c), '"'}
		if c == 'u' {
			in = []byte(`"\u00e9"`)
		}
		s := Scanner{Data: in}
		_, isPlain, ok := s.String()
		if want := json.Valid(in); ok != want || ok && (isPlain || !s.End()) {
			t.Errorf("String(%q) = plain %v, ok %v; want ok %v (json.Valid), not plain", in, isPlain, ok, want)
		}
	}
}

// TestStringUnicodeEscapes: a \u escape takes four hex digits of either
// case and nothing else in any of the four places, and is refused cut
// short, as encoding/json does.
func TestStringUnicodeEscapes(t *testing.T) {
	for at := range 4 {
		for c := range 256 {
			in := []byte(`"\u0a0A"`)
			in[3+at] = byte(c)
			s := Scanner{Data: in}
			if _, _, ok := s.String(); ok != json.Valid(in) {
				t.Errorf("String(%q) ok %v; json.Valid says %v", in, ok, !ok)
			}
		}
	}
	for _, in := range []string{`"\u`, `"\u0`, `"\u00`, `"\u00e`, `"\u00e9`} {
		s := Scanner{Data: []byte(in)}
		if _, _, ok := s.String(); ok {
			t.Errorf("String(%q) ok; want it refused, cut short", in)
		}
	}
}

// TestSkipRefusesUnclosed: an object or array is over only at its own
// closer: cut short, closed by the other kind's, or missing a value after
// a ',' or ':', Skip refuses it, as json.Valid does.
func TestSkipRefusesUnclosed(t *testing.T) {
	for _, in := range []string{`{"a":1`, `[1`, `{"a":1]`, `[1}`, `{"a":[1]`, `[{"a":1}`, `{"a":1,`, `[1,`, `{"a":`, `{"a"`, `{`, `[`} {
		if json.Valid([]byte(in)) {
			t.Fatalf("%q is JSON: the case tests nothing", in)
		}
		if s := (Scanner{Data: []byte(in)}); s.Skip() {
			t.Errorf("Skip(%q) took it; want it refused", in)
		}
	}
}
