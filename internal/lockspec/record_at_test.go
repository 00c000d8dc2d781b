package lockspec

import (
	"bytes"
	"testing"
	"time"
)

// A publish formats only the time into bytes made once per acquire: they
// must be the bytes encode gives, for every time and for hostnames that
// JSON escapes.
func TestRecordAtIsEncode(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 12, 1, 13, 44, 39, 123456789, time.UTC),
		time.Date(1999, 1, 2, 3, 4, 5, 0, time.FixedZone("x", -7*3600)),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Unix(0, 0),
	}
	for _, host := range []string{"", "h", `a"b\c`, "<&>", "\u2028\x01é"} {
		r := record{PID: 4242, Hostname: host, Token: "0123456789abcdef01234567"}
		tmpl := r.template()
		for _, when := range times {
			r.AcquiredAt = when.UTC().Format(timeLayout)
			if got, want := tmpl.at(when), r.encode(); !bytes.Equal(got, want) {
				t.Errorf("host %q at %v: %s; want %s", host, when, got, want)
			}
		}
	}
}

// Every lock this package writes takes the fast path of parseRecord, which
// reads what encoding/json reads; a hostname JSON escapes takes the slow
// one, and both read it the same.
func TestOwnRecordsTakeTheFastPath(t *testing.T) {
	for _, host := range []string{"", "build-01.example.com", "<&>", `a"b`, "é", "\x01"} {
		r := record{PID: 4242, Hostname: host, Token: "0123456789abcdef01234567"}
		data := r.template().at(time.Date(2026, 12, 1, 13, 44, 39, 0, time.UTC))
		fast := true
		for _, c := range []byte(host) {
			if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				fast = false // escaped by encoding/json
			}
		}
		own, ok := parseOwnRecord(data)
		if ok != fast {
			t.Errorf("host %q: fast path %v; want %v", host, ok, fast)
		}
		want, wok := parseAnyRecord(data)
		if !wok || want.hostname != host || want.pid != 4242 {
			t.Fatalf("host %q: parseAnyRecord(%s) = %+v, %v", host, data, want, wok)
		}
		if ok && own != want {
			t.Errorf("host %q: fast path %+v; encoding/json %+v", host, own, want)
		}
	}
}
