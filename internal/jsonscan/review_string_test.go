package jsonscan

import (
	"encoding/json"
	"testing"
)

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
