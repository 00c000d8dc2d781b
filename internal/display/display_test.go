package display_test

import (
	"io/fs"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/display"
)

// A value is escaped once: a hostname holding an escape sequence shows one
// backslash in the holder's line, and a quote cannot end the quoted host.
func TestDescribeEscapesOnce(t *testing.T) {
	h := display.Holder{PID: 7, Hostname: "\x1b[31mred\"x\u202e", HasHostname: true, State: "alive", AcquiredAt: "t"}
	got := h.Describe()
	want := `pid 7 on host "\x1b[31mred\"x\u202e" (alive, age 0s, acquiredAt t)`
	if got != want {
		t.Fatalf("Describe() = %s\nwant         %s", got, want)
	}
}

// acquiredAt is escaped like the host.
func TestDescribeEscapesAcquiredAt(t *testing.T) {
	h := display.Holder{PID: 7, State: "dead", AcquiredAt: "\x1b[2J"}
	if got := h.Describe(); strings.ContainsRune(got, 0x1b) || !strings.Contains(got, `\x1b[2J`) {
		t.Fatalf("Describe() = %q, want acquiredAt escaped", got)
	}
}

// Each shape of holder, and the lead a message makes of it.
func TestDescribeShapes(t *testing.T) {
	const lock = "agents/a/spawn-log.json.lock"
	for _, c := range []struct {
		h    display.Holder
		want string
	}{
		{display.Holder{PID: 9, State: "dead", Age: 1500 * time.Millisecond}, lock + " held by pid 9 on no hostname (this host) (dead, age 2s, acquiredAt unknown)"},
		{display.Holder{PID: 9, Hostname: "h", HasHostname: true, State: "alive", Evidence: "holds the lock's kernel lock", AcquiredAt: "x"},
			lock + ` held by pid 9 on host "h" (alive: holds the lock's kernel lock, age 0s, acquiredAt x)`},
		{display.Holder{Unreadable: true}, lock + " is an empty lock (0 bytes, age 0s)"},
		{display.Holder{Unreadable: true, Size: 1}, lock + " is an unreadable lock (1 byte, not a JSON object with an integer pid, age 0s)"},
		{display.Holder{Unreadable: true, Size: 12}, lock + " is an unreadable lock (12 bytes, not a JSON object with an integer pid, age 0s)"},
		{display.Holder{Unreadable: true, Size: 12, MaxSize: 12}, lock + " is an unreadable lock (12 bytes, not a JSON object with an integer pid, age 0s)"},
		{display.Holder{Unreadable: true, Size: 13, MaxSize: 12}, lock + " is an unreadable lock (13 bytes, longer than the 12 bytes a lock may hold, age 0s)"},
		{display.Holder{Unreadable: true, Mode: fs.ModeDir}, lock + " is not a regular file (a directory, age 0s): not a lock"},
		{display.Holder{Unreadable: true, Mode: fs.ModeIrregular}, lock + " is not a regular file (a name that cannot be read, age 0s): not a lock"},
	} {
		if got := c.h.HeldBy(lock); got != c.want {
			t.Errorf("HeldBy(%+v) = %q\nwant %q", c.h, got, c.want)
		}
	}
}

// A claim is named by its owner and its base name, escaped.
func TestClaim(t *testing.T) {
	got := display.Claim(42, "0a1b2c3d", "agents/a/s.json.lock.claim-\x1b")
	if want := `pid 42 (host 0a1b2c3d, claim s.json.lock.claim-\x1b)`; got != want {
		t.Errorf("Claim = %q; want %q", got, want)
	}
}

func TestAgeBounded(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1500 * time.Microsecond:      "2ms",
		1500 * time.Millisecond:      "2s",
		26 * time.Hour:               "26h0m0s",
		time.Duration(math.MaxInt64): "over 100000h",
	} {
		if got := display.Age(d); got != want {
			t.Errorf("Age(%v) = %q, want %q", d, got, want)
		}
	}
}
