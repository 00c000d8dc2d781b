package spawnlog_test

import (
	"context"
	"errors"
	"maps"
	"math"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/spawnlog"
)

// TestAppendNeverWrapsTheIDOnTheExactPath: a log only the exact parse
// reads (a record's key in another case) with nextId at the largest
// integer gives no id either: the whole-encode append refuses with
// ErrNoIDLeft, as the splice does, and writes nothing.
func TestAppendNeverWrapsTheIDOnTheExactPath(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		full := `{"version":1,"nextId":` + strconv.Itoa(math.MaxInt) + `,"records":[{"ID":1}]}`
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), full)
		before := estatetest.Snapshot(t, e.Dir)
		if r, err := spawnlog.Append(context.Background(), e.FS, "demo", "x", nil, opts()); !errors.Is(err, spawnlog.ErrNoIDLeft) {
			t.Errorf("Append at nextId MaxInt, read by the exact parse = %+v, %v; want ErrNoIDLeft", r, err)
		}
		if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
			t.Errorf("the estate changed: %q -> %q", before, after)
		}
	})
}
