package jsonscan

// Elems is what a reader has read of an array's elements: N of them, whose
// bytes are Data[Start:End], from the first one's first byte to the last
// one's last (Start == End when N is 0).
type Elems struct {
	// N is how many elements were read.
	N int
	// Start and End are the offsets in Data of the first element's first
	// byte and just after the last one's last.
	Start, End int
}

// SplitElems reads the elements of an array in data from from on (just after
// its '[', the array not empty) in two halves at once, split where sep (the
// layout between two elements, as [Split] takes it) is found past the
// middle: the first half from from in a goroutine of its own ([Go]), which
// must end an element exactly at the split (so it is between two elements,
// as one reader would find), the second from there in this one. Each half is
// read by a call of run (a reader of elements from s.Pos to stop, where one
// ends exactly, ended true and ok, or with stop -1 to the ']', read too: ok)
// with a Scanner and an Elems of its own and a copy of fresh (what run is to
// do, nothing read yet); join returns the first half's T with the second's
// put in.
//
// It returns the elements' bounds, the joined T and the offset just after
// the ']', ok; or ok false when not sure (no split found, the first half not
// ending an element at it, either half not sure), and the caller reads the
// array again with one reader. When ok, the result is one reader's as long
// as join gives for the two halves what run gives for the whole (the
// callers' FuzzFastPath checks it on every input).
func SplitElems[T any](data []byte, from int, sep string, fresh T, run func(s *Scanner, e *Elems, into *T, stop int) (ended, ok bool), join func(first, second T) T) (e Elems, joined T, end int, ok bool) {
	at := Split(data, from, sep)
	if at <= 0 {
		return e, joined, 0, false
	}
	h1 := &half[T]{s: Scanner{Data: data, Pos: from}, t: fresh}
	h2 := &half[T]{s: Scanner{Data: data, Pos: at}, t: fresh}
	wait := Go(data, func() bool {
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
	return Elems{N: h1.e.N + h2.e.N, Start: h1.e.Start, End: h2.e.End}, join(h1.t, h2.t), h2.s.Pos, true
}

// half is what one half of a split read writes as it goes (its Scanner's
// Pos at every byte it reads), padded so that the two halves, on the heap
// and read by two cores at once, never share a cache line (which made the
// split measurably slower than two stack frames).
type half[T any] struct {
	s Scanner
	e Elems
	t T
	_ [128]byte
}
