package spawnlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// The spawn-log's restorer gives the log before its dead writer's own
// record: every earlier record, byte for byte, and the nextId that writer
// read (its record's id), ranked by it; a temp file that does not parse,
// or holds only the writer's record, restores nothing.
func TestRestorerLeavesOutTheDeadWritersOwnRecord(t *testing.T) {
	l, err := Parse("", []byte(`{"version":1,"nextId":4,"records":[{"id":1,"title":"a","x":[1, 2]},{"id":2,"title":"b"},{"id":3,"title":"mine"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	temp := encode(4, l.raw)
	content, rank, ok := restorer(temp, false)
	if !ok || rank != 3 {
		t.Fatalf("restorer = %q, %d, %v; want the log before record 3, ranked 3", content, rank, ok)
	}
	got, err := Parse("", content)
	if err != nil || got.NextID != 3 || len(got.Records) != 2 || got.Records[0].ID != 1 || got.Records[1].ID != 2 {
		t.Fatalf("restored %q = %+v, %v; want records 1 and 2 and nextId 3", content, got, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, got.raw[0]); err != nil || compact.String() != `{"id":1,"title":"a","x":[1,2]}` {
		t.Errorf("record 1 restored as %s; want it whole, its unknown field kept", got.raw[0])
	}
	// The rank and the restored nextId are the writer's record's id, not
	// the count of records nor the highest earlier id plus one: ids 1, 2
	// and the writer's 5 restore records 1 and 2 with nextId 5, ranked 5.
	content, rank, ok = restorer([]byte(`{"version":1,"nextId":6,"records":[{"id":1},{"id":2},{"id":5,"title":"mine"}]}`), false)
	if got, err := Parse("", content); !ok || rank != 5 || err != nil || got.NextID != 5 || len(got.Records) != 2 {
		t.Errorf("restorer over ids 1, 2, 5 = %q, %d, %v; want records 1 and 2 with nextId 5, ranked 5", content, rank, ok)
	}
	for _, bad := range []string{
		`{"version":1,"nextId":2,"records":[{"id":1,"title":"mine"}]}`,     // only the writer's own
		`{"version":1,"nextId":4,"records":[{"id":1},{"id":2},{"id":3,"ti`, // torn
		`{"version":1,"nextId":9,"records":[{"id":5},{"id":2}]}`,           // not an append's shape
	} {
		if content, _, ok := restorer([]byte(bad), false); ok {
			t.Errorf("restorer(%s) = %q; want nothing restored", bad, content)
		}
	}
}

// A keep file (a settle's or a restore's commit: the spawn-log whole, no
// record of its writer's) restores whole, ranked by its nextId; one that
// does not parse restores nothing.
func TestRestorerTakesAKeepFileWhole(t *testing.T) {
	whole := []byte(`{"version":1,"nextId":3,"records":[{"id":1,"title":"a"},{"id":2,"title":"b"}]}`)
	content, rank, ok := restorer(whole, true)
	if !ok || rank != 3 || !bytes.Equal(content, whole) {
		t.Errorf("restorer(keep file) = %q, %d, %v; want it whole, ranked 3", content, rank, ok)
	}
	if _, _, ok := restorer([]byte(`{"version":1,"nextId":3,"records":[{"id":1`), true); ok {
		t.Error("restorer(torn keep file) restored it")
	}
}

// A second power cut, inside the next boot's settle of a doubled
// spawn-log (exFAT: the replaced entry's removal landed and not the
// rename's new entry), can leave the spawn-log missing beside only the
// settle's keep file. The boot after takes it whole: no record of the copy
// a lookup found goes, and no id of it is given again, whichever copy that
// was (the older: every record reported; the newer: its last shown to
// readers).
func TestACutInsideTheSettlesRenameLosesNoRecord(t *testing.T) {
	older := []byte(`{"version":1,"nextId":3,"records":[{"id":1,"title":"d1"},{"id":2,"title":"d2"}]}`)
	newer := []byte(`{"version":1,"nextId":4,"records":[{"id":1,"title":"d1"},{"id":2,"title":"d2"},{"id":3,"title":"d3"}]}`)
	name := estate.SpawnLogPath("demo")
	olderFirst, newerFirst, err := crashfs.Doubled(name, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	for found, fsys := range map[int]*crashfs.FS{2: olderFirst, 3: newerFirst} {
		t.Run(fmt.Sprintf("lookups find ids up to %d", found), func(t *testing.T) {
			m := locktest.NewMachine("host")
			m.SetBoot("11111111-1111-1111-1111-111111111111")
			opts := func(p *locktest.IdentityProcess) lockspec.Options {
				return lockspec.Options{Host: p, Timeout: 20 * time.Millisecond, PollInterval: time.Millisecond}
			}
			from := fsys.Ops()
			p := m.SpawnIn(0)
			if _, err := Append(context.Background(), fsys, "demo", "after", nil, opts(p)); err != nil {
				t.Fatal(err)
			}
			m.Kill(p.PID()) // the power went: every process of the boot is gone
			m.SetBoot("22222222-2222-2222-2222-222222222222")
			missing := 0
			for n := from; n <= fsys.Ops(); n++ {
				cut, err := fsys.CutAt(n)
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range cut.States(nil, 0) {
					v := st.FS()
					if _, err := v.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
						continue
					}
					if entries, _ := v.ReadDir(estate.AgentDir("demo")); len(vfs.FilterPrefix(entries, []string{"spawn-log.json.keep-", "spawn-log.json.tmp-"})) == 0 {
						continue // the rename's every removal landed and no new entry: no name holds the records (said by open, as the board is ahead)
					}
					missing++
					q := m.SpawnIn(0)
					rec, err := Append(context.Background(), v, "demo", "next boot", nil, opts(q))
					m.Kill(q.PID())
					if err != nil {
						t.Fatalf("cut after op %d (%s): the next append: %v\n%s", n, fsys.Op(n), err, st)
					}
					log, err := Read(v, "demo")
					if err != nil {
						t.Fatal(err)
					}
					for id := 1; id <= found; id++ {
						if !slices.ContainsFunc(log.Records, func(r Record) bool { return r.ID == id }) {
							t.Fatalf("cut after op %d (%s): the spawn-log lost dispatch %d of the copy a lookup found: holds %+v\n%s", n, fsys.Op(n), id, log.Records, st)
						}
					}
					if rec.ID <= found {
						t.Fatalf("cut after op %d (%s): the next append got id %d, one of the copy a lookup found\n%s", n, fsys.Op(n), rec.ID, st)
					}
				}
			}
			if missing == 0 {
				t.Fatal("no state of a cut inside the settle left the spawn-log missing")
			}
		})
	}
}
