package lockspec

import "testing"

// A FILETIME is one number of 100 ns intervals: high 32 bits, then low.
func TestFileTimeValue(t *testing.T) {
	// 2024-01-01T00:00:00Z is 133485408000000000 intervals since 1601.
	const v uint64 = 133485408000000000
	if got := fileTimeValue(uint32(v>>32), uint32(v&0xffffffff)); got != v {
		t.Errorf("fileTimeValue = %d; want %d", got, v)
	}
	if got := fileTimeValue(0, 1); got != 1 {
		t.Errorf("fileTimeValue(0, 1) = %d; want 1", got)
	}
	if got := fileTimeValue(1, 0); got != 1<<32 {
		t.Errorf("fileTimeValue(1, 0) = %d; want 2^32", got)
	}
}
