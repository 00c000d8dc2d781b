package lockspec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/internal/fuzzseed"
	"github.com/pa-toolkit/pa/vfs"
)

// fuzzHost is a host whose pids below 1000 are alive, for the white-box
// fuzz targets (locktest imports this package, so it cannot be used here).
type fuzzHost struct{}

func (fuzzHost) Hostname() string   { return "fuzz-host" }
func (fuzzHost) PID() int           { return 1 }
func (fuzzHost) Alive(pid int) bool { return pid < 1000 }

// FuzzParseRecord: whatever bytes sit under the lock name, the record
// parser never panics; what it accepts is one JSON object with a pid in
// 1..maxPID that re-encodes to the same record; and the holder judged from
// it is described in one bounded, printable line, whatever the hostname,
// token or acquiredAt hold.
func FuzzParseRecord(f *testing.F) {
	for _, seed := range []string{
		`{"pid":1234,"hostname":"h","token":"00112233445566778899aabb","acquiredAt":"2026-11-29T15:42:59.123Z"}`,
		`{"pid":1234}`,
		`{"pid":0}`, `{"pid":-1}`, `{"pid":9223372036854775808}`, `{"pid":1.5}`, `{"pid":1e3}`, `{"pid":"12"}`,
		`{"pid":12,"hostname":"\u001b[2J"}`, `{"pid":12,"hostname":null}`, `{"pid":12} {}`,
		`[1,2]`,
	} {
		f.Add([]byte(seed))
	}
	for _, seed := range fuzzseed.Hostile {
		f.Add([]byte(seed))
	}
	e := Options{Host: fuzzHost{}, Now: func() time.Time { return time.Unix(1e9, 0) }}.env()
	for _, seed := range []string{
		`{"pid":1234,"hostname":"","token":"","acquiredAt":""}`,
		`{"pid":2147483647,"hostname":"<a&b>","token":"t","acquiredAt":"x"}`,
		`{"pid":2147483648,"hostname":"h","token":"t","acquiredAt":"x"}`,
		`{"pid":01,"hostname":"h","token":"t","acquiredAt":"x"}`,
		`{"pid":1,"hostname":"h\u0041","token":"t","acquiredAt":"x"}`,
		`{"pid":1,"hostname":"h","token":"t","acquiredAt":"x"} `,
		`{"pid":1,"hostname":"h","token":"t","acquiredAt":"x"}}`,
		`{"pid":1,"hostname":"h","token":"t","acquiredAt":"x","pid":2}`,
		`{"pid":7,"hostname":"h","token":"t","boot":"0f6c3f1e-5b8e-4e55-9d3c-6f0a1b2c3d4e","pidNamespace":4026531836,"startTime":1234,"kernelLock":{"dev":2049,"ino":131},"acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","boot":"0F6C3F1E-5B8E-4E55-9D3C-6F0A1B2C3D4E","pidNamespace":0,"startTime":-1,"kernelLock":{"dev":1,"ino":0},"acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","pidNamespace":"4026531836","startTime":1.5,"kernelLock":{"dev":1,"ino":2,"ino":3},"acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","startTime":18446744073709551616,"kernelLock":{"dev":1,"ino":2},"acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","kernelLock":{"dev":1,"ino":2},"lock_id":"lk_0123456789abcdef","agent":"demo","operation":"dispatch open","policy":"single_flight","acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","lock_id":"lk_0123456789ABCDEF","agent":"/home/a","operation":"$HOME","policy":"hurry","acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","policy":"monitor","agent":"a","acquiredAt":"x"}`,
		`{"pid":7,"hostname":"h","token":"t","agent":"","operation":null,"lock_id":5,"acquiredAt":"x"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, ok := parseRecord(data)
		// The fast path for our own shape reads what encoding/json reads.
		if own, fast := parseOwnRecord(data); fast {
			if any, ok := parseAnyRecord(data); !ok || any != own {
				t.Fatalf("parseOwnRecord(%q) = %+v; parseAnyRecord = %+v, %v", data, own, any, ok)
			}
		}
		if ok {
			if p.pid < 1 || p.pid > maxPID {
				t.Fatalf("parseRecord(%q) accepted pid %d, outside 1..%d", data, p.pid, maxPID)
			}
			if !json.Valid(data) || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
				t.Fatalf("parseRecord(%q) accepted what is not one JSON object", data)
			}
			var kernel *vfs.FileKey
			if p.claimsKernel {
				kernel = &p.kernel
			}
			l := p.labels
			again, ok := parseRecord(record{PID: p.pid, Hostname: p.hostname, Token: p.token, AcquiredAt: p.acquiredAt}.withIdentity(p.id, kernel).
				withLabels(l.lockID, l.agent, l.operation, l.policy).encode())
			if !ok || again.pid != p.pid || again.hostname != p.hostname || again.token != p.token || again.acquiredAt != p.acquiredAt ||
				again.id != p.id || again.claimsKernel != p.claimsKernel || again.kernel != p.kernel || again.labels != p.labels {
				t.Fatalf("parseRecord(%q) = %+v, which re-encodes to %+v", data, p, again)
			}
		}
		h := e.judge(data, int64(len(data)), time.Unix(1e9, 0), nil)
		if ok != (h.State != StateUnreadable) {
			t.Fatalf("judged %v for a record parsed %v", h.State, ok)
		}
		line := Shown(h).HeldBy("agents/a/spawn-log.json.lock")
		if n := utf8.RuneCountInString(line); n > 300 || !fuzzseed.Printable(line) {
			t.Fatalf("the holder of %q reads %q (%d characters); want one printable line of at most 300", data, line, n)
		}
	})
}

// FuzzClassify: whatever name sits beside the lock, the name classifier
// never panics, claims only names that start as the spec's do, reads a pid
// in 1..maxPID and a host of 8 hex; and every name the lock makes is read
// back with its owner.
func FuzzClassify(f *testing.F) {
	for _, seed := range []string{
		"f.lock.pending-0a1b2c3d-4242-0123456789abcdef01234567",
		"f.lock.claim-0123456789abcdef-0a1b2c3d-4242-0123456789abcdef01234567",
		"f.lock.broken-0a1b2c3d-4242-1700000000000-abc123",
		"f.lock.broken-4242-9f8e7d", "f.tmp-4242-9f8e7d", "f.lock.claim-1234567", "f.lock.claim-h0a1b2c3d4e5f6a7b",
		"f.lock.pending-0a1b2c3d-0-00", "f.lock.pending-0a1b2c3d-99999999999-00", "f.lock.pending-0a1b2c3d--1-00",
		"f.lock.claim-", "f.lock.claim-h", "f.lock", "f", ".fuse_hidden0000001", "f.lock.pending-\x00\n",
	} {
		f.Add(seed, 4242)
	}
	n := newNames("d/f", HostHash("fuzz-host"), 0)
	f.Fuzz(func(t *testing.T, base string, pid int) {
		kind, o := n.classify(base)
		switch kind {
		case notOurs:
		case ownerInName:
			if o.pid < 1 || o.pid > maxPID || o.hostHash != "" && (len(o.hostHash) != 8 || !isHex(o.hostHash)) {
				t.Fatalf("classify(%q) = owner %+v: want a pid in 1..%d and a host of 8 hex or none", base, o, maxPID)
			}
			if !strings.HasPrefix(base, "f.lock.pending-") && !strings.HasPrefix(base, "f.lock.broken-") &&
				!strings.HasPrefix(base, "f.tmp-") && !strings.HasPrefix(base, "f.lock.claim-") {
				t.Fatalf("classify(%q) claimed a name of no shape of the spec", base)
			}
		case ownerInClaim:
			if !strings.HasPrefix(base, "f.lock.claim-") {
				t.Fatalf("classify(%q) read an owner from a claim's content for a name that is no claim", base)
			}
		default:
			t.Fatalf("classify(%q) = kind %d", base, kind)
		}
		if pid < 1 || pid > maxPID {
			return
		}
		// Every name the lock makes, with any attempt token, is its own.
		m := n
		m.pid = pid
		attempt := hex.EncodeToString([]byte(base))
		if attempt == "" {
			attempt = "00"
		}
		for _, made := range []string{m.pending(attempt), m.broken(attempt), m.temp(attempt), m.claim(claimKey([]byte(base)), attempt)} {
			made = made[len("d/"):]
			k, o := n.classify(made)
			if k != ownerInName || o.pid != pid || o.hostHash != n.host {
				t.Fatalf("classify(%q), a name the lock makes, = %d %+v; want pid %d on host %s", made, k, o, pid, n.host)
			}
		}
	})
}
