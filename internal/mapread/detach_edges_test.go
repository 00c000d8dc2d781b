package mapread

import (
	"testing"
	"unsafe"
)

// Detach's edges where data has room past its end (a buffer of ReadFile's
// has): a moved part's capacity is capped at data's end, not kept past it;
// a part that begins at data's end is no slice of data and is left as it
// is; a part that begins in data but runs past its end gets a copy of its
// own; and parts of data with no capacity need no copy at all.
func TestDetachAtDataEnd(t *testing.T) {
	buf := []byte("0123456789abcdef")
	data := buf[:10] // "0123456789", with 6 bytes of room past its end

	// A part of data whose capacity runs into the room past data's end.
	got := Detach([][]byte{data[6:8]}, data)
	if string(got[0]) != "67" || cap(got[0]) != 4 || &got[0][0] == &data[6] {
		t.Errorf("a part of data with capacity past its end: %q, cap %d (moved: %v); want \"67\" moved, cap 4",
			got[0], cap(got[0]), &got[0][0] != &data[6])
	}

	// A part that begins at data's end.
	after := buf[10:12]
	got = Detach([][]byte{after}, data)
	if &got[0][0] != &buf[10] || string(got[0]) != "ab" {
		t.Errorf("a part past data's end was moved or changed: %q", got[0])
	}

	// A part that begins in data and runs past its end: its own copy.
	across := buf[8:12]
	got = Detach([][]byte{across, data[0:2]}, data)
	buf[9], buf[10] = 'X', 'X'
	if string(got[0]) != "89ab" || string(got[1]) != "01" {
		t.Errorf("a part across data's end: %q, %q; want \"89ab\" and \"01\", kept after data changed", got[0], got[1])
	}
	if p := unsafe.Pointer(unsafe.SliceData(got[0])); p == unsafe.Pointer(&buf[8]) {
		t.Error("a part across data's end still points into data")
	}

	// Parts of data with no capacity: nothing to keep valid, no copy made.
	big := make([]byte, 4096) // past what a make could take on the stack
	empty := make([][]byte, 2)
	if n := testing.AllocsPerRun(10, func() {
		empty[0], empty[1] = big[3:3:3], big[4096:]
		Detach(empty, big)
	}); n != 0 {
		t.Errorf("Detach of parts with no capacity allocated %v times; want no copy", n)
	}
}

// The parts moved share one copy laid out as data: each at its own offset.
func TestDetachOneCopy(t *testing.T) {
	data := []byte("aaaa,bbbb,cccc")
	got := Detach([][]byte{data[0:4:4], data[5:9:9], data[10:14:14]}, data)
	base := uintptr(unsafe.Pointer(&got[0][0]))
	for i, off := range []uintptr{0, 5, 10} {
		if p := uintptr(unsafe.Pointer(&got[i][0])); p-base != off {
			t.Errorf("part %d at offset %d of the copy; want %d (one copy for all)", i, p-base, off)
		}
	}
	if &got[0][0] == &data[0] {
		t.Error("the parts were not moved")
	}
}
