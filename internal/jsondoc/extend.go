package jsondoc

import "encoding/json"

// Extend returns, in parts, the document d (as [Parse] or [Read] gave it)
// with elems added after its elements, in the order given, and the
// header's integer next: a new head, each old element's bytes as read
// (d.Raw, none copied), joined as encode joins them, then each of elems
// indented as encode indents it, and the trailer. For a document encode
// wrote, the result is byte for byte what encode writes with elems added;
// for any other the old elements keep their bytes verbatim (only the
// layout between them is encode's). When there is no element at all, it
// is encode's own document (encode is the format's write of a whole
// [Doc]). Extend does not look at the keys: the caller adds only elements
// whose keys d does not have (it adds several at once where [Edit.Append]
// adds one).
func Extend[E any](f *Format[E], d Doc[E], elems []E, next int, encode func(Doc[E]) []byte) [][]byte {
	if len(d.Raw) == 0 && len(elems) == 0 {
		d.Next = next
		return [][]byte{encode(d)}
	}
	parts := make([][]byte, 0, 2*(len(d.Raw)+len(elems))+1)
	parts = append(parts, f.newHead(next))
	sep := []byte(elemSep)
	for _, raw := range d.Raw {
		if len(parts) > 1 {
			parts = append(parts, sep)
		}
		parts = append(parts, raw)
	}
	for _, elem := range elems {
		// encode marshals each element compact, then indents the whole
		// document: the same as indenting the element at its depth.
		body, err := json.MarshalIndent(elem, "    ", "  ")
		if err != nil {
			panic(err) // a format's elements are strings and ints: they always marshal
		}
		if len(parts) > 1 {
			parts = append(parts, sep)
		}
		parts = append(parts, body)
	}
	return append(parts, []byte(trailer))
}
