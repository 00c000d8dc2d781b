package mapread

import (
	"testing"
	"unsafe"
)

// TestInside: inside is true for the bytes of data only (the address a
// fault reports is checked against it), and never for empty data.
func TestInside(t *testing.T) {
	buf := make([]byte, 16)
	data := buf[4:12]
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	for addr, want := range map[uintptr]bool{base - 1: false, base: true, base + 7: true, base + 8: false} {
		if got := inside(addr, data); got != want {
			t.Errorf("inside(base%+d) = %v; want %v", int(addr-base), got, want)
		}
	}
	if inside(base, data[:0]) {
		t.Error("inside(base, empty) = true; want false")
	}
}
