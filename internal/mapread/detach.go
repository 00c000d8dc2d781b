package mapread

import "unsafe"

// Detach returns parts with each part that is a slice of data (bytes of a
// file read by [File], say) made the same slice of one heap copy of data
// instead, so that they stay valid after data's release; parts that are
// not slices of data are kept as they are. The copy is made only when some
// part needs it, and it is one block for all of them (the memory of one
// read of the file, as vfs.ReadFile would take). Each moved part keeps its
// length and capacity, capped at data's end. A part that begins in data but
// runs past its end (into room past len(data)) gets a heap copy of its own
// instead, of its length and capacity. parts is changed in place and
// returned.
//
// The copy reads the whole of data: for a mapping, call Detach inside
// [Guard], so that a file cut short meanwhile is an error, not a
// crash.
func Detach[S ~[]byte](parts []S, data []byte) []S {
	if len(data) == 0 {
		return parts
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	var heap []byte
	for i, p := range parts {
		if cap(p) == 0 {
			continue
		}
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
		if addr < base || addr-base >= uintptr(len(data)) {
			continue
		}
		off := int(addr - base)
		if len(p) > len(data)-off {
			parts[i] = S(append(make([]byte, 0, cap(p)), p...))
			continue
		}
		if heap == nil {
			heap = make([]byte, len(data))
			copy(heap, data)
		}
		c := min(cap(p), len(data)-off)
		parts[i] = S(heap[off : off+len(p) : off+c])
	}
	return parts
}
