package board

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/benchcpu"
)

// benchBoard is a board of n items as pa writes them, with titles and
// times like the growth measure's (bench: Growth).
func benchBoard(n int) []byte {
	var b Board
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		it := Item{DispatchID: i + 1, Title: "dispatch " + strconv.Itoa(i+1) + ": review the change",
			AddedAt: start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z")}
		raw, err := json.Marshal(it)
		if err != nil {
			panic(err)
		}
		b.Items, b.raw = append(b.Items, it), append(b.raw, raw) // not add: its look for the id is quadratic
	}
	return b.encode()
}

// BenchmarkScan is the fast scan of an open (collect false) on a board of
// 100k items: its throughput is the scan's share of `pa dispatch open`.
func BenchmarkScan(b *testing.B) {
	data := benchBoard(100000)
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(data, false, 100001); !ok || s.N != 100000 || s.found {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}

// BenchmarkScanByKey is BenchmarkScan on the same board compacted (no
// whitespace): each item read key by key, the fast path's fallback.
func BenchmarkScanByKey(b *testing.B) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, benchBoard(100000)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	benchcpu.Loop(b, func() {
		if s, ok := scan(data, false, 100001); !ok || s.N != 100000 || s.found {
			b.Fatalf("scan = %+v, %v", s, ok)
		}
	})
}
