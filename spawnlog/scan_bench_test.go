package spawnlog

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/benchcpu"
)

// benchLog is a log of n records as pa writes them, with titles and times
// like the growth measure's (bench: Growth).
func benchLog(n int) []byte {
	l := Log{NextID: 1}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		r := Record{Agent: "demo", Title: "dispatch " + strconv.Itoa(i+1) + ": review the change",
			OpenedAt: start.Add(time.Duration(i) * time.Second).Format(openedAtLayout), PID: 40000 + i%1000, Hostname: "build-host"}
		if _, err := l.appendRecord(r); err != nil {
			panic(err)
		}
	}
	return l.encode()
}

// BenchmarkScan is the fast scan of an append (collect false) on a
// spawn-log of 100k records: its throughput is the scan's share of
// `pa dispatch open` at that size.
func BenchmarkScan(b *testing.B) {
	data := benchLog(100000)
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(data, false); !ok || s.N != 100000 {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}

// BenchmarkScanByKey is BenchmarkScan on the same log compacted (no
// whitespace): each record read key by key, the fast path's fallback.
func BenchmarkScanByKey(b *testing.B) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchLog(100000)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(data, false); !ok || s.N != 100000 {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}
