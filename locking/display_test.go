package locking

import (
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestCapForDisplay(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", 32), strings.Repeat("a", 32)},
		{strings.Repeat("a", 33), strings.Repeat("a", 29) + "..."},
		{strings.Repeat("é", 40), strings.Repeat("é", 29) + "..."},
		{"evil\x1b[2Jhost", `evil\x1b[2Jhost`},
		{"n\nt\tz\x00d\x7fc\u0085", `n\nt\tz\x00d\x7fc\u0085`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\\slash`},
	} {
		if got := CapForDisplay(c.in); got != c.want {
			t.Errorf("CapForDisplay(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("\x1b", 255)
	if got := CapForDisplay(long); utf8.RuneCountInString(got) != 32 || strings.ContainsRune(got, 0x1b) {
		t.Errorf("CapForDisplay of 255 ESC = %q, want 32 escaped characters", got)
	}
}

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

// A value is escaped once: a hostname holding an escape sequence shows one
// backslash in the holder's line, and a quote cannot end the quoted host.
func TestDescribeEscapesOnce(t *testing.T) {
	h := Holder{PID: 7, Hostname: "\x1b[31mred\"x\u202e", HasHostname: true, State: StateAlive, AcquiredAt: "t"}
	got := h.Describe()
	want := `pid 7 on host "\x1b[31mred\"x\u202e" (alive, age 0s, acquiredAt t)`
	if got != want {
		t.Fatalf("Describe() = %s\nwant         %s", got, want)
	}
}

// acquiredAt is escaped like the host, and the cap counts characters, not
// bytes.
func TestDescribeEscapesAcquiredAtAndCountsRunes(t *testing.T) {
	h := Holder{PID: 7, State: StateDead, AcquiredAt: "\x1b[2J"}
	if got := h.Describe(); strings.ContainsRune(got, 0x1b) || !strings.Contains(got, `\x1b[2J`) {
		t.Fatalf("Describe() = %q, want acquiredAt escaped", got)
	}
	if s := strings.Repeat("é", 32); CapForDisplay(s) != s {
		t.Fatalf("CapForDisplay of 32 characters (64 bytes) = %q, want it whole", CapForDisplay(s))
	}
}

func TestFormatAgeBounded(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1500 * time.Microsecond:      "2ms",
		1500 * time.Millisecond:      "2s",
		26 * time.Hour:               "26h0m0s",
		time.Duration(math.MaxInt64): "over 100000h",
	} {
		if got := FormatAge(d); got != want {
			t.Errorf("FormatAge(%v) = %q, want %q", d, got, want)
		}
	}
}
