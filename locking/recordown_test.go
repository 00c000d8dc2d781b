package locking

import (
	"strconv"
	"testing"
)

// A pid that does not fit in 1..maxPID makes a lock unreadable on every
// architecture: the fast parse must not wrap a ten-digit pid into the
// range where int is 32 bits (GOARCH=386, arm), or an unreadable lock
// would read as a lock of another, possibly dead, pid and be broken.
func TestParseOwnRecordPIDDoesNotWrap(t *testing.T) {
	for _, pid := range []uint64{1<<32 + 1, 1<<32 + 12345, 1<<33 + 7, 9999999999, maxPID + 1} {
		data := []byte(`{"pid":` + strconv.FormatUint(pid, 10) + `,"hostname":"h","token":"t","acquiredAt":"x"}`)
		if p, ok := parseOwnRecord(data); ok {
			t.Errorf("parseOwnRecord(%s) = pid %d, ok; want not ok (pid beyond %d)", data, p.pid, maxPID)
		}
		if p, ok := parseRecord(data); ok {
			t.Errorf("parseRecord(%s) = pid %d, ok; want an unreadable lock", data, p.pid)
		}
	}
}
