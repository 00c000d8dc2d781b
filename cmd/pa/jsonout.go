package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pa-toolkit/pa/internal/termsafe"
)

// envelopeCut is the longest problem line --hook-envelope carries, in
// characters (spec: pa board check).
const envelopeCut = 360

// marshalJSON is json.Marshal for pa's output (--json, --hook-envelope):
// the values stay whole, but DEL, C1 and the bidirectional controls are
// written as \uXXXX in the JSON text (termsafe.EscapeJSON; encoding/json
// already escapes C0), so the text is valid JSON with the same values and
// no terminal sees those characters raw.
func marshalJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // pa marshals only strings, ints, bools and structs of them
	}
	return termsafe.EscapeJSON(b)
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
