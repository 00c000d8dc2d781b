package lockspec

import (
	"bytes"

	"github.com/pa-toolkit/pa/vfs"
)

// parseOwnRecord parses, without encoding/json, a lock in the one shape
// this package writes (record.encode): {"pid":N,"hostname":"…","token":"…",
// then, each where present and in this order, "boot":"<uuid>",
// "pidNamespace":N, "startTime":N, "kernelLock":{"dev":N,"ino":N},
// "lock_id":"…", "agent":"…", "operation":"…", "policy":"…" (each in its
// valid shape: parseLabels), then "acquiredAt":"…"}, no space, integers with no leading zero (a pid of
// 1..maxPID; pidNamespace, startTime and ino of 1 or more), and strings of
// printable ASCII with no quote or backslash. It reports ok=false for
// anything else, which parseAnyRecord then reads; what it accepts,
// parseAnyRecord reads the same (a fuzz test checks it). A waiter reads
// the held lock at each wake, and the decoder's reflection was most of the
// cost of that read.
func parseOwnRecord(data []byte) (parsedRecord, bool) {
	var p parsedRecord
	rest, ok := bytes.CutPrefix(data, []byte(`{"pid":`))
	if !ok {
		return p, false
	}
	pid, rest, ok := cutInteger(rest)
	if !ok || pid < 1 || pid > maxPID {
		return p, false
	}
	p.pid = int(pid)
	for _, f := range []struct {
		key string
		dst *string
	}{{`,"hostname":"`, &p.hostname}, {`","token":"`, &p.token}} {
		if rest, ok = bytes.CutPrefix(rest, []byte(f.key)); !ok {
			return p, false
		}
		*f.dst, rest = cutPlain(rest)
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`","boot":"`)); ok {
		p.id.Boot, rest = cutPlain(r)
		if !validBoot(p.id.Boot) {
			return p, false
		}
	}
	rest, ok = bytes.CutPrefix(rest, []byte(`"`))
	if !ok {
		return p, false
	}
	for _, f := range []struct {
		key string
		dst *uint64
	}{{`,"pidNamespace":`, &p.id.PIDNamespace}, {`,"startTime":`, &p.id.StartTime}} {
		if r, ok := bytes.CutPrefix(rest, []byte(f.key)); ok {
			if *f.dst, rest, ok = cutInteger(r); !ok || *f.dst == 0 {
				return p, false
			}
		}
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"kernelLock":{"dev":`)); ok {
		var key vfs.FileKey
		if key.Dev, r, ok = cutInteger(r); !ok {
			return p, false
		}
		if r, ok = bytes.CutPrefix(r, []byte(`,"ino":`)); !ok {
			return p, false
		}
		if key.Ino, r, ok = cutInteger(r); !ok || key.Ino == 0 {
			return p, false
		}
		if rest, ok = bytes.CutPrefix(r, []byte(`}`)); !ok {
			return p, false
		}
		p.kernel, p.claimsKernel = key, true
	}
	for _, f := range []struct {
		key   string
		dst   *string
		valid func(string) bool
	}{
		{`,"lock_id":"`, &p.labels.lockID, validLockID}, {`,"agent":"`, &p.labels.agent, nonEmptyLabel},
		{`,"operation":"`, &p.labels.operation, nonEmptyLabel}, {`,"policy":"`, &p.labels.policy, validPolicy},
	} {
		if r, ok := bytes.CutPrefix(rest, []byte(f.key)); ok {
			*f.dst, r = cutPlain(r)
			if rest, ok = bytes.CutPrefix(r, []byte(`"`)); !ok || !f.valid(*f.dst) || *f.dst == "" {
				return p, false // encoding/json reads it, and says what it is
			}
		}
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"acquiredAt":"`)); !ok {
		return p, false
	}
	p.acquiredAt, rest = cutPlain(rest)
	if string(rest) != `"}` {
		return p, false
	}
	p.hasHostname = true
	return p, true
}

// cutPlain cuts the longest run of printable ASCII with no quote or
// backslash off the front of b: a JSON string's content that needs no
// unescaping.
func cutPlain(b []byte) (string, []byte) {
	i := 0
	for i < len(b) && b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\' {
		i++
	}
	return string(b[:i]), b[i:]
}

// cutInteger cuts a decimal integer of 0..2^64-1 with no leading zero off
// the front of b. At most 20 digits are read, and the value is checked for
// overflow, so no digit string wraps into range (where int is 32 bits, a
// ten-digit pid would have wrapped into 1..maxPID).
func cutInteger(b []byte) (uint64, []byte, bool) {
	var n uint64
	digits := 0
	for digits < len(b) && b[digits] >= '0' && b[digits] <= '9' {
		d := uint64(b[digits] - '0')
		if digits == 20 || n > (^uint64(0)-d)/10 {
			return 0, b, false
		}
		n = n*10 + d
		digits++
	}
	if digits == 0 || digits > 1 && b[0] == '0' {
		return 0, b, false
	}
	return n, b[digits:], true
}
