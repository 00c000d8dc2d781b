package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pa-toolkit/pa/internal/termsafe"
)

// envelopeCut is the longest problem line --hook-envelope carries, in
// characters (spec: pa board check).
const envelopeCut = 360

// marshalJSON is json.Marshal for what pa prints (--json, --hook-envelope),
// with no final newline: the values stay whole, '<', '>' and '&' are
// written as they are (not \u003c as json.Marshal writes them for HTML),
// but DEL, C1 and the bidirectional controls are written as \uXXXX in the
// JSON text (termsafe.EscapeJSON; encoding/json already escapes C0), so
// the text is valid JSON with the same values and no terminal sees those
// characters raw.
func marshalJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // pa marshals only strings, ints, bools and structs of them
	}
	return termsafe.EscapeJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// writeEnvelope prints the one JSON object of --hook-envelope:
// {"ok":bool,"problems":[lines]}, each line cut at envelopeCut characters.
func writeEnvelope(w io.Writer, lines []string) error {
	cutLines := make([]string, len(lines))
	for i, l := range lines {
		cutLines[i] = cut(l, envelopeCut)
	}
	_, err := fmt.Fprintf(w, "%s\n", marshalJSON(map[string]any{"ok": len(lines) == 0, "problems": cutLines}))
	return err
}

// cut keeps the first n characters of s.
func cut(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
