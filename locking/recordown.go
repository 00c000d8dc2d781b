package locking

import "bytes"

// parseOwnRecord parses, without encoding/json, a lock in the one shape
// this package writes (record.encode): {"pid":N,"hostname":"…","token":"…",
// "acquiredAt":"…"}, keys in that order, no space, a pid of 1..maxPID
// with no leading zero, and strings of printable ASCII with no quote or
// backslash. It reports ok=false for anything else, which parseAnyRecord
// then reads; what it accepts, parseAnyRecord reads the same (a fuzz test
// checks it). A waiter reads the held lock at each wake, and the decoder's
// reflection was most of the cost of that read.
func parseOwnRecord(data []byte) (parsedRecord, bool) {
	var p parsedRecord
	rest, ok := bytes.CutPrefix(data, []byte(`{"pid":`))
	if !ok {
		return p, false
	}
	// In int64, at most ten digits: where int is 32 bits a ten-digit pid
	// would wrap into 1..maxPID (an unreadable lock read as another pid's).
	var n int64
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		if digits == 10 {
			return p, false
		}
		n = n*10 + int64(rest[digits]-'0')
		digits++
	}
	if digits == 0 || rest[0] == '0' || n > maxPID {
		return p, false
	}
	p.pid, rest = int(n), rest[digits:]
	for _, f := range []struct {
		key string
		dst *string
	}{{`,"hostname":"`, &p.hostname}, {`","token":"`, &p.token}, {`","acquiredAt":"`, &p.acquiredAt}} {
		if rest, ok = bytes.CutPrefix(rest, []byte(f.key)); !ok {
			return p, false
		}
		i := 0
		for i < len(rest) && rest[i] >= 0x20 && rest[i] < 0x7f && rest[i] != '"' && rest[i] != '\\' {
			i++
		}
		*f.dst, rest = string(rest[:i]), rest[i:]
	}
	if string(rest) != `"}` {
		return p, false
	}
	p.hasHostname = true
	return p, true
}
