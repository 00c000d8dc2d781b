package board_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
)

// writeEstate puts n records on agent's spawn-log and n-1 of them on its
// board (the last one is missing), laid out as pa writes them.
func writeEstate(t *testing.T, e *estatetest.Estate, agent string, n int) {
	t.Helper()
	var log, items strings.Builder
	log.WriteString("{\n  \"version\": 1,\n  \"nextId\": " + strconv.Itoa(n+1) + ",\n  \"records\": [")
	items.WriteString("{\n  \"version\": 1,\n  \"items\": [")
	for i := 1; i <= n; i++ {
		id := strconv.Itoa(i)
		if i > 1 {
			log.WriteString(",")
		}
		log.WriteString("\n    {\n      \"id\": " + id + ",\n      \"agent\": \"" + agent + "\",\n      \"title\": \"t\",\n      \"openedAt\": \"2026-01-01T00:00:00.000Z\",\n      \"pid\": 1,\n      \"hostname\": \"h\"\n    }")
		if i < n {
			if i > 1 {
				items.WriteString(",")
			}
			items.WriteString("\n    {\n      \"dispatchId\": " + id + ",\n      \"title\": \"t\",\n      \"addedAt\": \"2026-01-01T00:00:00.000Z\"\n    }")
		}
	}
	log.WriteString("\n  ]\n}\n")
	items.WriteString("\n  ]\n}\n")
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath(agent), log.String())
	estatetest.WriteFile(t, e.Dir, estate.BoardPath(agent), items.String())
}

// Check is linear in the records and items (a set of the board's ids, not
// a look through the board per record): twenty times the dispatches take
// far less than the four hundred times as long a quadratic check would
// (at most 200 times). Each size is timed five times, the two interleaved,
// and the best of each is compared, so that a loaded machine (other test
// binaries on the same cores) does not decide it.
func TestCheckGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a spawn-log of 40,000 records")
	}
	e := estatetest.New(t, estatetest.Classes[0])
	const small, large = 2000, 40000
	writeEstate(t, e, "small", small)
	writeEstate(t, e, "large", large)
	timed := func(agent string, want int) time.Duration {
		t0 := time.Now()
		p, err := board.Check(e.FS, agent, board.CheckOptions{})
		d := time.Since(t0)
		if err != nil || len(p) != 1 || p[0].Kind != board.KindNotOnBoard || p[0].DispatchID != want {
			t.Fatalf("Check(%s) = %+v, %v; want dispatch %d not on the board", agent, p, err, want)
		}
		return d
	}
	s, l := time.Hour, time.Hour
	for range 5 {
		s = min(s, timed("small", small))
		l = min(l, timed("large", large))
	}
	ratio := float64(l) / float64(s)
	t.Logf("Check took %v for %d dispatches and %v for %d: %.0f times as long", s, small, l, large, ratio)
	if ratio > 200 {
		t.Errorf("Check took %.0f times as long for twenty times the dispatches; want it linear (at most 200 times)", ratio)
	}
}
