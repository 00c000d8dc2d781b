package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pa-toolkit/pa/internal/jsonwords"
)

// errTrailing is data after the document's object.
var errTrailing = errors.New("data after the JSON object")

// parsePlain is the plain path: the document by encoding/json, which
// decides every error and its message, but for a key of the top level
// given twice, which encoding/json takes (keeping the last) and this
// refuses with a *DuplicateKeyError (topLevelDuplicate): a rewrite would
// lose the first. It copies nothing of data but the elements' bytes, which
// encoding/json hands over as its own, and the top-level keys.
func parsePlain[E any](f *Format[E], data []byte) (Doc[E], error) {
	f.layout() // checks the format, as the fast path does
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		// White space alone (or nothing) is empty, as the decoder would
		// say, but without its buffer taking a copy of all of it first.
		return Doc[E]{}, io.EOF
	}
	h := f.NewHeader()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(h); err != nil {
		return Doc[E]{}, err
	}
	if len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return Doc[E]{}, errTrailing // even a lone '}', which dec.More does not see
	}
	if err := topLevelDuplicate(data, []string{"version", f.Next, f.Array}); err != nil {
		return Doc[E]{}, err
	}
	version, next, raw := h.Parts()
	switch {
	case version == nil:
		return Doc[E]{}, errors.New(`no "version"`)
	case *version != f.Version:
		return Doc[E]{}, fmt.Errorf("unknown version %d (this pa knows %d)", *version, f.Version)
	case raw == nil:
		return Doc[E]{}, fmt.Errorf("no %q array", f.Array)
	}
	d := Doc[E]{Raw: raw}
	if next != nil {
		d.Next = *next
	}
	for i, r := range raw {
		var e E
		if err := json.Unmarshal(r, &e); err != nil {
			return Doc[E]{}, jsonwords.In(fmt.Sprintf("%s %d", f.Elem, i), err)
		}
		if err := f.CheckKey(f.Key(e)); err != nil {
			return Doc[E]{}, fmt.Errorf("%s %d: %w", f.Elem, i, err)
		}
		d.Elems = append(d.Elems, e)
		d.MaxKey = max(d.MaxKey, f.Key(e))
	}
	return d, nil
}
