package lockspec

import (
	"testing"
)

func TestParseRecord(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		host bool
	}{
		{`{"pid":12,"hostname":"h","token":"t","acquiredAt":"x"}`, true, true},
		{`{"pid":12}`, true, false},
		{` {"pid": 12 } `, true, false},
		{`{"pid":12,"extra":[1,2]}`, true, false},
		{`{"pid":"12"}`, false, false},
		{`{"pid":12.0}`, false, false},
		{`{"pid":1e3}`, false, false},
		{`{"pid":0}`, false, false},
		{`{"pid":2147483648}`, false, false},
		{`{"pid":12,"hostname":null}`, false, false},
		{`{"pid":12,"token":5}`, false, false},
		{`{"pid":12}{"pid":13}`, false, false},
		// A key twice: unreadable, whichever copy a parser would keep.
		{`{"pid":1,"pid":999999}`, false, false},
		{`{"pid":12,"hostname":"x","hostname":"y"}`, false, false},
		{`{"pid":12,"token":"a","p\u0069d":13}`, false, false},
		{`{"pid":12,"extra":1,"extra":2}`, false, false},
		{`{"pid":12,"extra":{"a":1,"a":2}}`, true, false}, // only the top level counts
		{``, false, false},
		{`null`, false, false},
	} {
		p, ok := parseRecord([]byte(c.in))
		if ok != c.ok || ok && p.hasHostname != c.host {
			t.Errorf("parseRecord(%s) = %+v, %v; want ok=%v hostname=%v", c.in, p, ok, c.ok, c.host)
		}
	}
}

func TestClassifyNames(t *testing.T) {
	n := newNames("d/s.json", "0a1b2c3d", 7)
	for _, c := range []struct {
		name string
		kind leftoverKind
		host string
		pid  int
	}{
		{"s.json.lock.pending-0a1b2c3d-42-0123456789abcdef01234567", ownerInName, "0a1b2c3d", 42},
		{"s.json.lock.broken-0a1b2c3d-42-0123456789abcdef01234567", ownerInName, "0a1b2c3d", 42},
		{"s.json.tmp-0a1b2c3d-42-0123456789abcdef01234567", ownerInName, "0a1b2c3d", 42},
		{"s.json.lock.claim-0123456789abcdef-0a1b2c3d-42-0123456789abcdef01234567", ownerInName, "0a1b2c3d", 42},
		{"s.json.lock.broken-42-9f8e", ownerInName, "", 42},
		{"s.json.tmp-42-9f8e", ownerInName, "", 42},
		{"s.json.lock.broken-0a1b2c3d-42-1700000000000-abc", ownerInName, "0a1b2c3d", 42},
		{"s.json.lock.claim-123456", ownerInClaim, "", 0},
		{"s.json.lock.claim-h0a1b", ownerInClaim, "", 0},
		{"s.json.lock", notOurs, "", 0},
		{"s.json", notOurs, "", 0},
		{"s.json.lock.claim-", notOurs, "", 0},
		{"s.json.lock.claim-hxyz", notOurs, "", 0},
		{"s.json.lock.pending-zz-42-00", notOurs, "", 0},
		{"s.json.lock.broken-0-00", notOurs, "", 0},
		{"s.json.tmp-0a1b2c3d-99999999999-00", notOurs, "", 0},
		{"other.json.tmp-0a1b2c3d-42-00", notOurs, "", 0},
		{"s.json.lock.pending-0a1b2c3d-42-0123456789abcdef01234567.bak", notOurs, "", 0},
	} {
		kind, o := n.classify(c.name)
		if kind != c.kind || o.hostHash != c.host || o.pid != c.pid {
			t.Errorf("classify(%q) = %v %+v, want %v host=%q pid=%d", c.name, kind, o, c.kind, c.host, c.pid)
		}
	}
}
