package jsonscan

import (
	"bytes"
	"runtime/debug"
	"unsafe"
)

// SplitMin is the fewest bytes left in a document for which a caller's
// scan of an array is split in two halves read at once ([Split], [Go]): below
// it one goroutine is faster than starting another.
const SplitMin = 1 << 20

// Split returns where a second reader of an array's elements may start in
// data, for a first that reads from from: the offset just after the first
// end (the byte before sep) of sep found from the middle of data[from:] on,
// or -1 when there is none. sep is the layout between two elements as an
// encoder writes it ("},\n    {" for objects indented by four spaces),
// which holds a newline: a newline is never inside a JSON string, so in
// JSON the offset is outside any string. Whether it is between two
// elements of the array is for the caller to check: the first reader must
// end an element exactly there, and any doubt falls back to one reader.
func Split(data []byte, from int, sep string) int {
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

// Go runs f in a goroutine of its own and returns the function that waits
// for its result. A fault touching data while f runs (a mapped file cut
// short meanwhile: see vfs.GuardMapped, which guards only its own
// goroutine) makes the result false, "not sure", instead of a crash: the
// caller then reads data again in its own, guarded goroutine, which meets
// the same fault and reports it. Any other panic goes on.
func Go(data []byte, f func() bool) (wait func() bool) {
	done := make(chan bool, 1)
	go func() {
		ok := false
		defer func() { done <- ok }()
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				if fault, ok := r.(interface{ Addr() uintptr }); !ok || !inside(fault.Addr(), data) {
					panic(r)
				}
			}
		}()
		ok = f()
	}()
	return func() bool { return <-done }
}

// inside reports whether addr is in data's bytes.
func inside(addr uintptr, data []byte) bool {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return len(data) > 0 && base <= addr && addr-base < uintptr(len(data))
}
