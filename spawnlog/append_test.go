package spawnlog_test

import (
	"context"
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/spawnlog"
)

// opts are short lock options for tests: a 2 s timeout is never reached by
// a free or dead lock, and fails fast if something holds it by mistake.
func opts() locking.Options { return locking.Options{Timeout: 2 * time.Second} }

func appendN(t *testing.T, e *estatetest.Estate, agent string, n int) []spawnlog.Record {
	t.Helper()
	var recs []spawnlog.Record
	for i := range n {
		r, err := spawnlog.Append(context.Background(), e.FS, agent, "t"+string(rune('a'+i)), nil, opts())
		if err != nil {
			t.Fatalf("Append #%d: %v", i, err)
		}
		recs = append(recs, r)
	}
	return recs
}

func TestAppendAllocatesIDsInOrder(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		recs := appendN(t, e, "demo", 3)
		for i, r := range recs {
			if r.ID != i+1 || r.Agent != "demo" || r.PID != os.Getpid() {
				t.Errorf("record %d = %+v; want id %d, agent demo, pid %d", i, r, i+1, os.Getpid())
			}
		}
		log, err := spawnlog.Read(e.FS, "demo")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(log.Records, recs) || log.NextID != 4 {
			t.Errorf("Read = %+v; want the 3 records appended and nextId 4", log)
		}
		if got := estatetest.Files(t, filepath.Join(e.Dir, "agents", "demo")); !slices.Equal(got, []string{"spawn-log.json"}) {
			t.Errorf("agent folder holds %q; want only spawn-log.json", got)
		}
	})
}

func TestAppendRecordFieldsComeFromTheOptions(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	p := locktest.NewMachine("box").Spawn()
	at := time.Date(2026, 11, 29, 15, 42, 59, 123e6, time.FixedZone("x", 3600))
	o := opts()
	o.Host, o.Now = p, func() time.Time { return at }
	r, err := spawnlog.Append(context.Background(), e.FS, "demo", "hello", nil, o)
	if err != nil {
		t.Fatal(err)
	}
	want := spawnlog.Record{ID: 1, Agent: "demo", Title: "hello", OpenedAt: "2026-11-29T14:42:59.123Z", PID: p.PID(), Hostname: "box"}
	if r != want {
		t.Errorf("Append = %+v; want %+v", r, want)
	}
}

// Ids are distinct forever: writers in parallel never share one, and an id
// above nextId (a hand edit) or a nextId above every id is respected.
func TestAppendIDsDistinct(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		const writers, each = 8, 5
		var wg sync.WaitGroup
		errs := make(chan error, writers*each)
		for range writers {
			wg.Go(func() {
				for range each {
					_, err := spawnlog.Append(context.Background(), e.FS, "demo", "", nil, locking.Options{Timeout: 20 * time.Second})
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("Append: %v", err)
			}
		}
		log, err := spawnlog.Read(e.FS, "demo")
		if err != nil {
			t.Fatal(err)
		}
		var ids []int
		for _, r := range log.Records {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
		if len(ids) != writers*each || ids[0] != 1 || ids[len(ids)-1] != writers*each || len(slices.Compact(ids)) != writers*each {
			t.Errorf("ids = %v; want 1..%d, each once", ids, writers*each)
		}
	})
}

func TestAppendRespectsNextIDAndHigherIDs(t *testing.T) {
	tests := []struct {
		name, doc string
		want      int
	}{
		{"nextId above every id", `{"version":1,"nextId":10,"records":[{"id":3}]}`, 10},
		{"an id above nextId", `{"version":1,"nextId":5,"records":[{"id":12}]}`, 13},
		{"no nextId", `{"version":1,"records":[{"id":4},{"id":2}]}`, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := estatetest.New(t, estatetest.Classes[0])
			estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), tt.doc)
			r, err := spawnlog.Append(context.Background(), e.FS, "demo", "", nil, opts())
			if err != nil || r.ID != tt.want {
				t.Errorf("Append = %+v, %v; want id %d", r, err, tt.want)
			}
		})
	}
}

// A field this version does not know, in a record, survives a rewrite: the
// record keeps its bytes as they were (the append splices the new record
// after them), and when the file is not of the common shape (here a key
// spelt in another case) the exact parse keeps the field, re-indented.
func TestAppendKeepsUnknownRecordFields(t *testing.T) {
	for doc, want := range map[string]string{
		`{"version":1,"nextId":2,"records":[{"id":1,"agent":"demo","future":{"x":[1,2]}}]}`: `    {"id":1,"agent":"demo","future":{"x":[1,2]}},` + "\n",
		`{"Version":1,"nextId":2,"records":[{"id":1,"agent":"demo","future":{"x":[1,2]}}]}`: `"future": {`,
	} {
		e := estatetest.New(t, estatetest.Classes[0])
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), doc)
		if _, err := spawnlog.Append(context.Background(), e.FS, "demo", "", nil, opts()); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(estate.SpawnLogPath("demo"))))
		if !strings.Contains(string(b), want) {
			t.Errorf("spawn-log %s after the append:\n%s\nwant the record's unknown field kept (%q)", doc, b, want)
		}
		if log, err := spawnlog.Read(e.FS, "demo"); err != nil || len(log.Records) != 2 || log.NextID != 3 {
			t.Errorf("spawn-log %s after the append reads as %+v, %v; want 2 records and nextId 3", doc, log, err)
		}
	}
}

// A spawn-log that does not parse, or has an unknown version, is never
// overwritten: the write fails with a *CorruptError naming the file, and
// the file keeps its bytes; nothing is left beside it.
func TestCorruptSpawnLogIsNeverOverwritten(t *testing.T) {
	corrupt := map[string]string{
		"empty":            "",
		"not json":         "not json",
		"cut short":        `{"version":1,"nextId":2,"records":[{"id":1}`,
		"an array":         `[]`,
		"null":             `null`,
		"unknown version":  `{"version":2,"nextId":1,"records":[]}`,
		"no version":       `{"nextId":1,"records":[]}`,
		"no records":       `{"version":1,"nextId":1}`,
		"a record no id":   `{"version":1,"nextId":1,"records":[{"agent":"x"}]}`,
		"a string id":      `{"version":1,"nextId":1,"records":[{"id":"1"}]}`,
		"unknown field":    `{"version":1,"nextId":1,"records":[],"extra":true}`,
		"trailing data":    `{"version":1,"nextId":1,"records":[]} {}`,
		"trailing brace":   `{"version":1,"nextId":1,"records":[]}}`,
		"binary":           "\x00\x01\xff\xfe",
		"a record is null": `{"version":1,"nextId":1,"records":[null]}`,
		"a string nextId":  `{"version":1,"nextId":"2","records":[]}`,
		"a huge nextId":    `{"version":1,"nextId":99999999999999999999,"records":[]}`,
		"the largest id":   `{"version":1,"records":[{"id":` + strconv.Itoa(math.MaxInt) + `}]}`,
		"a huge id":        `{"version":1,"nextId":1,"records":[{"id":9223372036854775808}]}`,
	}
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for name, doc := range corrupt {
			agent := strings.ReplaceAll(name, " ", "-")
			estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath(agent), doc)
			_, err := spawnlog.Append(context.Background(), e.FS, agent, "x", nil, opts())
			var ce *spawnlog.CorruptError
			if !errors.As(err, &ce) || !errors.Is(err, spawnlog.ErrCorrupt) || ce.Path != estate.SpawnLogPath(agent) {
				t.Errorf("%s: Append = %v; want a *CorruptError for %s", name, err, estate.SpawnLogPath(agent))
				continue
			}
			if want := estate.SpawnLogPath(agent) + " does not parse: want a JSON object with version, nextId and records: "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s: error %q; want it to start with %q", name, err, want)
			}
			for _, leak := range []string{"Go ", "json:", "spawnlog.", "document", "[]json"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("%s: error %q shows Go internals (%q)", name, err, leak)
				}
			}
			b, _ := os.ReadFile(filepath.Join(e.Dir, "agents", agent, "spawn-log.json"))
			if string(b) != doc {
				t.Errorf("%s: spawn-log is now %q; want it byte for byte %q", name, b, doc)
			}
			if got := estatetest.Files(t, filepath.Join(e.Dir, "agents", agent)); !slices.Equal(got, []string{"spawn-log.json"}) {
				t.Errorf("%s: agent folder holds %q; want only spawn-log.json", name, got)
			}
			if _, err := spawnlog.Read(e.FS, agent); !errors.As(err, &ce) {
				t.Errorf("%s: Read = %v; want a *CorruptError", name, err)
			}
		}
	})
}

// A bad agent name is a usage error that touches nothing: the estate stays
// empty. A 240-character name works.
func TestAgentNames(t *testing.T) {
	bad := []string{"../x", "a/b", ".hidden", "", strings.Repeat("x", 300), "a\x00b", ".", "..", `a\b`}
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for _, agent := range bad {
			_, err := spawnlog.Append(context.Background(), e.FS, agent, "x", nil, opts())
			if !errors.Is(err, estate.ErrInvalidAgent) {
				t.Errorf("Append(agent %.40q) = %v; want an error matching estate.ErrInvalidAgent", agent, err)
			}
			if _, err := spawnlog.Read(e.FS, agent); !errors.Is(err, estate.ErrInvalidAgent) {
				t.Errorf("Read(agent %.40q) = %v; want an error matching estate.ErrInvalidAgent", agent, err)
			}
		}
		if got := estatetest.Files(t, e.Dir); len(got) != 0 {
			t.Errorf("the estate holds %q after bad agent names; want nothing", got)
		}
		long := strings.Repeat("a", 240)
		recs := appendN(t, e, long, 2)
		if recs[1].ID != 2 || recs[1].Agent != long {
			t.Errorf("a 240-character agent: records %+v; want ids 1 and 2", recs)
		}
	})
}

// The messages of a spawn-log that does not parse are plain words: the
// shape wanted, then what is wrong, with no Go type in them.
func TestCorruptSpawnLogMessages(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	cases := map[string]string{
		`[]`: "it is an array, not an object",
		`{"version":1,"nextId":"2","records":[]}`:         `"nextId" is a string, not an integer`,
		`{"version":1,"nextId":1,"records":[{"id":"1"}]}`: `record 0: "id" is a string, not an integer`,
		`{"version":1,"nextId":1,"records":[7]}`:          `record 0: it is a number, not an object`,
	}
	for doc, reason := range cases {
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), doc)
		_, err := spawnlog.Read(e.FS, "demo")
		want := "agents/demo/spawn-log.json does not parse: want a JSON object with version, nextId and records: " + reason
		var ce *spawnlog.CorruptError
		if !errors.As(err, &ce) || err.Error() != want {
			t.Errorf("%s: Read = %v; want %q", doc, err, want)
		}
	}
}

// A nextId at the largest integer gives no id (nextId+1 would wrap around
// to a negative, already-used range): Append refuses with ErrNoIDLeft and
// writes nothing; one below it gives its last id.
func TestAppendNeverWrapsTheID(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		full := `{"version":1,"nextId":` + strconv.Itoa(math.MaxInt) + `,"records":[]}`
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), full)
		before := estatetest.Snapshot(t, e.Dir)
		_, err := spawnlog.Append(context.Background(), e.FS, "demo", "x", nil, opts())
		if !errors.Is(err, spawnlog.ErrNoIDLeft) || !strings.Contains(err.Error(), "agents/demo/spawn-log.json: nextId is "+strconv.Itoa(math.MaxInt)) {
			t.Errorf("Append at nextId MaxInt = %v; want ErrNoIDLeft naming the file and nextId", err)
		}
		if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
			t.Errorf("the estate changed: %q -> %q", before, after)
		}

		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), `{"version":1,"nextId":`+strconv.Itoa(math.MaxInt-1)+`,"records":[]}`)
		r, err := spawnlog.Append(context.Background(), e.FS, "demo", "x", nil, opts())
		if err != nil || r.ID != math.MaxInt-1 {
			t.Fatalf("Append at nextId MaxInt-1 = %+v, %v; want id %d", r, err, math.MaxInt-1)
		}
		log, err := spawnlog.Read(e.FS, "demo")
		if err != nil || log.NextID != math.MaxInt {
			t.Errorf("after the last id: %+v, %v; want a readable log with nextId MaxInt", log, err)
		}
		if _, err := spawnlog.Append(context.Background(), e.FS, "demo", "x", nil, opts()); !errors.Is(err, spawnlog.ErrNoIDLeft) {
			t.Errorf("the append after the last id = %v; want ErrNoIDLeft", err)
		}
	})
}

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
