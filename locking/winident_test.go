package locking

import (
	"strings"
	"testing"
)

// A Windows boot counter is a boot id as Identity.Boot records one (a
// lowercase UUID, validBoot), under the fixed prefix, one per counter; 0
// is not known.
func TestWindowsBoot(t *testing.T) {
	for _, c := range []struct {
		id   uint32
		want string
	}{
		{1, "77696e64-626f-6f74-6964-000000000001"},
		{532, "77696e64-626f-6f74-6964-000000000214"},
		{0xabcdef12, "77696e64-626f-6f74-6964-0000abcdef12"},
		{0xffffffff, "77696e64-626f-6f74-6964-0000ffffffff"},
	} {
		got := windowsBoot(c.id)
		if got != c.want || !validBoot(got) || !strings.HasPrefix(got, windowsBootPrefix) {
			t.Errorf("windowsBoot(%d) = %q (valid %v); want %q, a valid boot id", c.id, got, validBoot(got), c.want)
		}
	}
	if got := windowsBoot(0); got != "" {
		t.Errorf("windowsBoot(0) = %q; want \"\" (not known)", got)
	}
	if windowsBoot(41) == windowsBoot(42) {
		t.Errorf("two boot counters make one boot id: %q", windowsBoot(41))
	}
}

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
