package jsondoc

import (
	"bytes"

	"github.com/pa-toolkit/pa/internal/jsonscan"
	"github.com/pa-toolkit/pa/internal/mapread"
)

// The split read of a large array in two halves at once (scanArray): the
// fast path's, and needed by Growth's time goal (see fast.go).

// bounds is what a reader has read of an array's elements: N of them, whose
// bytes are Data[Start:End], from the first one's first byte to the last
// one's last (Start == End when N is 0).
type bounds struct {
	// N is how many elements were read.
	N int
	// Start and End are the offsets in Data of the first element's first
	// byte and just after the last one's last.
	Start, End int
}

// splitElems reads the elements of an array in data from from on (just after
// its '[', the array not empty) in two halves at once, split where sep (the
// layout between two elements, as [splitAt] takes it) is found past the
// middle: the first half from from in a goroutine of its own ([mapread.Go]),
// which must end an element exactly at the split (so it is between two
// elements, as one reader would find), the second from there in this one.
// Each half is read by a call of run (a reader of elements from s.Pos to
// stop, where one ends exactly, ended true and ok, or with stop -1 to the
// ']', read too: ok) with a jsonscan.Scanner and bounds of its own and a
// copy of fresh (what run is to do, nothing read yet); join returns the
// first half's T with the second's put in.
//
// It returns the elements' bounds, the joined T and the offset just after
// the ']', ok; or ok false when not sure (no split found, the first half not
// ending an element at it, either half not sure), and the caller reads the
// array again with one reader. When ok, the result is one reader's as long
// as join gives for the two halves what run gives for the whole (the
// callers' FuzzFastPath checks it on every input).
func splitElems[T any](data []byte, from int, sep string, fresh T, run func(s *jsonscan.Scanner, e *bounds, into *T, stop int) (ended, ok bool), join func(first, second T) T) (e bounds, joined T, end int, ok bool) {
	at := splitAt(data, from, sep)
	if at <= 0 {
		return e, joined, 0, false
	}
	h1 := &half[T]{s: jsonscan.Scanner{Data: data, Pos: from}, t: fresh}
	h2 := &half[T]{s: jsonscan.Scanner{Data: data, Pos: at}, t: fresh}
	wait := mapread.Go(data, func() bool {
		ended, ok := run(&h1.s, &h1.e, &h1.t, at)
		return ok && ended
	})
	ok = h2.s.Byte(',')
	if ok {
		_, ok = run(&h2.s, &h2.e, &h2.t, -1)
	}
	if !wait() || !ok || h1.e.N == 0 || h2.e.N == 0 {
		return e, joined, 0, false
	}
	return bounds{N: h1.e.N + h2.e.N, Start: h1.e.Start, End: h2.e.End}, join(h1.t, h2.t), h2.s.Pos, true
}

// half is what one half of a split read writes as it goes (its
// jsonscan.Scanner's Pos at every byte it reads), padded so that the two
// halves, on the heap and read by two cores at once, never share a cache
// line (which made the split measurably slower than two stack frames).
type half[T any] struct {
	s jsonscan.Scanner
	e bounds
	t T
	_ [128]byte
}

// splitMinBytes is the fewest bytes left in a document for which a caller's
// scan of an array is split in two halves read at once ([splitAt],
// [mapread.Go]): below it one goroutine is faster than starting another.
const splitMinBytes = 1 << 20

// splitAt returns where a second reader of an array's elements may start in
// data, for a first that reads from from: the offset just after the first
// end (the byte before sep) of sep found from the middle of data[from:] on,
// or -1 when there is none. sep is the layout between two elements as an
// encoder writes it ("},\n    {" for objects indented by four spaces),
// which holds a newline: a newline is never inside a JSON string, so in
// JSON the offset is outside any string. Whether it is between two
// elements of the array is for the caller to check: the first reader must
// end an element exactly there, and any doubt falls back to one reader.
func splitAt(data []byte, from int, sep string) int {
	mid := from + (len(data)-from)/2
	if mid >= len(data) {
		return -1
	}
	i := bytes.Index(data[mid:], []byte(sep))
	if i < 0 {
		return -1
	}
	return mid + i + 1
}
