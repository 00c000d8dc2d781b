package dispatch_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// The board is read once per hold and the spawn-log once per commit: an
// open opens each exactly once (the board's write is from that one read).
func TestOpenReadsTheBoardAndTheSpawnLogOnce(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for i := 1; i <= 3; i++ {
			ffs := faultfs.New(e.FS)
			if _, err := dispatch.Open(context.Background(), ffs, "demo", "job", opts()); err != nil {
				t.Fatal(err)
			}
			boardOpens, logOpens := ffs.Calls(faultfs.OpOpenFile, estate.BoardPath("demo")), ffs.Calls(faultfs.OpOpenFile, estate.SpawnLogPath("demo"))
			if boardOpens != 1 || logOpens != 1 {
				t.Errorf("open #%d opened the board %d times and the spawn-log %d times; want each once", i, boardOpens, logOpens)
			}
		}
		b, err := board.Read(e.FS, "demo")
		if err != nil || len(b.Items) != 3 {
			t.Errorf("board %+v, %v; want 3 items", b, err)
		}
	})
}

// A hold that loses its lock reads the board again in the next: a newer
// writer that opened a dispatch in between keeps its board item (the first
// hold's read of the board is never written back), and each hold read the
// board and the spawn-log once.
func TestOpenAfterALostLockReadsTheBoardAgain(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		ffs := faultfs.New(e.FS)
		o := opts()
		forced := false
		lockspec.SetOnStep(&o, func(s lockspec.Step) {
			if s != lockspec.StepCommitTempWritten || forced {
				return
			}
			forced = true // unlock --force, then a newer writer opens a dispatch
			if err := os.Remove(filepath.Join(e.Dir, filepath.FromSlash(estate.SpawnLogPath("demo")+".lock"))); err != nil {
				t.Error(err)
			}
			if rec, err := dispatch.Open(context.Background(), e.FS, "demo", "newer", opts()); err != nil || rec.ID != 1 {
				t.Errorf("the newer open = %+v, %v; want dispatch 1", rec, err)
			}
		})
		rec, err := dispatch.Open(context.Background(), ffs, "demo", "fenced out once", o)
		if err != nil || rec.ID != 2 || !forced {
			t.Fatalf("Open = %+v, %v; want dispatch 2 after one lost lock", rec, err)
		}
		b, err := board.Read(e.FS, "demo")
		if err != nil || len(b.Items) != 2 || b.Items[0].Title != "newer" || b.Items[1].DispatchID != 2 {
			t.Fatalf("board %+v, %v; want the newer writer's dispatch 1, then dispatch 2", b, err)
		}
		if n, m := ffs.Calls(faultfs.OpOpenFile, estate.BoardPath("demo")), ffs.Calls(faultfs.OpOpenFile, estate.SpawnLogPath("demo")); n != 2 || m != 2 {
			t.Errorf("two holds opened the board %d times and the spawn-log %d times; want each twice", n, m)
		}
		if p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{}); err != nil || len(p) != 0 {
			t.Errorf("Check = %+v, %v; want no problem", p, err)
		}
	})
}

// A spawn-log that does not parse stops an open before anything is
// written, whatever the board: the error names the spawn-log, and the
// estate keeps its bytes.
func TestCorruptSpawnLogStopsTheOpen(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for _, doc := range []string{"", `{"version":1,"nextId":1,"records":[{"id":1,"id":"x"}]}`, `{"version":1,"nextId":2,"records":[{"id":1}]}x`} {
			estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), doc)
			estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), `{"version":1,"items":[]}`)
			before := estatetest.Snapshot(t, e.Dir)
			_, err := dispatch.Open(context.Background(), e.FS, "demo", "x", opts())
			var ce *spawnlog.CorruptError
			if !errors.As(err, &ce) || ce.Path != estate.SpawnLogPath("demo") || !strings.HasPrefix(err.Error(), "agents/demo/spawn-log.json does not parse: ") {
				t.Errorf("spawn-log %q: Open = %v; want a *spawnlog.CorruptError naming it", doc, err)
			}
			if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
				t.Errorf("spawn-log %q: the estate changed: %q -> %q", doc, before, after)
			}
		}
	})
}

// The board write keeps the items as they were in the file, byte for byte,
// and adds the new one after them.
func TestOpenKeepsTheBoardItemsVerbatim(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	items := `{"dispatchId":7,"title":"by hand","future":{"x":[1, 2]}},  {"dispatchId":8}`
	estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), `{"version":1,"items":[`+items+`]}`)
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), `{"version":1,"nextId":9,"records":[]}`)
	rec, err := dispatch.Open(context.Background(), e.FS, "demo", "new", opts())
	if err != nil || rec.ID != 9 {
		t.Fatalf("Open = %+v, %v; want dispatch 9", rec, err)
	}
	raw, _ := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(estate.BoardPath("demo"))))
	if !strings.Contains(string(raw), "\n    "+items+",\n    {\n      \"dispatchId\": 9,") {
		t.Errorf("the board is now\n%s\nwant the items as they were, then dispatch 9", raw)
	}
	b, err := board.Read(e.FS, "demo")
	if ids := []int{7, 8, 9}; err != nil || len(b.Items) != 3 || !slices.Equal([]int{b.Items[0].DispatchID, b.Items[1].DispatchID, b.Items[2].DispatchID}, ids) {
		t.Errorf("board %+v, %v; want items %v", b, err, ids)
	}
}

// A board write that fails after the spawn-log commit (its rename, here)
// is a *NotOnBoardError naming the dispatch, returned with the record: the
// record is in the spawn-log, the board keeps its bytes, and board check
// names the dispatch.
func TestBoardWriteFailureAfterTheCommit(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), `{"version":1,"items":[]}`)
		ffs := faultfs.New(e.FS)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "board.json", Err: syscall.EIO})
		rec, err := dispatch.Open(context.Background(), ffs, "demo", "x", opts())
		var nb *dispatch.NotOnBoardError
		if !errors.As(err, &nb) || nb.DispatchID != 1 || rec.ID != 1 || !errors.Is(err, syscall.EIO) || errors.Is(err, locking.ErrLockLost) {
			t.Fatalf("Open = %+v, %v; want record 1 and a *NotOnBoardError for it wrapping EIO", rec, err)
		}
		if log, err := spawnlog.Read(e.FS, "demo"); err != nil || len(log.Records) != 1 {
			t.Errorf("spawn-log %+v, %v; want the record", log, err)
		}
		if got, _ := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(estate.BoardPath("demo")))); string(got) != `{"version":1,"items":[]}` {
			t.Errorf("the board is now %q; want it as it was", got)
		}
		if p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{}); err != nil || len(p) != 1 || p[0].Kind != dispatch.KindNotOnBoard || p[0].DispatchID != 1 {
			t.Errorf("Check = %+v, %v; want dispatch 1 not on the board", p, err)
		}
	})
}

func opts() locking.Options { return locking.Options{Timeout: 2 * time.Second} }

// Open puts every dispatch on the board under the spawn-log lock,
// and leaves nothing beside spawn-log.json, the board folder and board.json.
func TestOpenDispatchPatchesTheBoard(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for i := 1; i <= 3; i++ {
			r, err := dispatch.Open(context.Background(), e.FS, "demo", "job", opts())
			if err != nil || r.ID != i {
				t.Fatalf("Open #%d = %+v, %v; want id %d", i, r, err, i)
			}
		}
		b, err := board.Read(e.FS, "demo")
		if err != nil {
			t.Fatal(err)
		}
		var ids []int
		for _, it := range b.Items {
			ids = append(ids, it.DispatchID)
			if it.Title != "job" || it.AddedAt == "" {
				t.Errorf("item %+v; want title job and an addedAt", it)
			}
		}
		if !slices.Equal(ids, []int{1, 2, 3}) {
			t.Errorf("board items %v; want 1, 2, 3", ids)
		}
		want := []string{"board/", "board/board.json", "spawn-log.json"}
		if got := estatetest.Files(t, filepath.Join(e.Dir, "agents", "demo")); !slices.Equal(got, want) {
			t.Errorf("agent folder holds %q; want %q", got, want)
		}
		if p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{}); err != nil || len(p) != 0 {
			t.Errorf("Check = %+v, %v; want no problem", p, err)
		}
	})
}

// A board that does not parse is never overwritten, and the spawn-log is
// not touched either: the board is read and checked under the lock, before
// the spawn-log commit.
func TestCorruptBoardIsNeverOverwritten(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for _, doc := range []string{"", "{", `{"version":9,"items":[]}`, `{"version":1,"items":[{"title":"no id"}]}`, `[]`, `{"version":1,"items":{}}`, `{"version":1,"items":[{"dispatchId":"1"}]}`, `{"version":1,"items":[]}}`} {
			estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), doc)
			before := estatetest.Snapshot(t, e.Dir)
			_, err := dispatch.Open(context.Background(), e.FS, "demo", "x", opts())
			var ce *board.CorruptError
			if !errors.As(err, &ce) || ce.Path != estate.BoardPath("demo") || !strings.HasPrefix(err.Error(), "agents/demo/board/board.json does not parse: want a JSON object with version and items: ") {
				t.Errorf("board %q: Open = %v; want a *board.CorruptError naming the board", doc, err)
			}
			if strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "json:") {
				t.Errorf("board %q: error %q shows Go internals", doc, err)
			}
			if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
				t.Errorf("board %q: the estate changed: %q -> %q", doc, before, after)
			}
		}
	})
}

func TestBadAgentTouchesNothing(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for _, agent := range []string{"../x", "a/b", ".hidden", "", strings.Repeat("x", 300), "a\x00b"} {
			if _, err := dispatch.Open(context.Background(), e.FS, agent, "x", opts()); !errors.Is(err, estate.ErrInvalidAgent) {
				t.Errorf("Open(agent %.40q) = %v; want estate.ErrInvalidAgent", agent, err)
			}
			if _, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{}); !errors.Is(err, estate.ErrInvalidAgent) {
				t.Errorf("Check(agent %.40q) = %v; want estate.ErrInvalidAgent", agent, err)
			}
		}
		if got := estatetest.Files(t, e.Dir); len(got) != 0 {
			t.Errorf("the estate holds %q; want nothing", got)
		}
	})
}

// An open that fails before its commit (the lock is held by a live process
// and it does not wait) leaves no board folder behind: the board folder is
// made under the lock.
func TestFailedOpenMakesNoBoardFolder(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		lock := `{"pid":` + strconv.Itoa(os.Getpid()) + `,"hostname":"` + hostnameOf(t) + `","token":"0123456789abcdef01234567","acquiredAt":"2026-01-01T00:00:00.000Z"}`
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo")+".lock", lock)
		o := opts()
		o.Timeout = locking.NoWait
		_, err := dispatch.Open(context.Background(), e.FS, "demo", "t", o)
		if !errors.Is(err, locking.ErrTimeout) {
			t.Fatalf("err = %v, want a timeout", err)
		}
		got := slices.DeleteFunc(estatetest.Files(t, filepath.Join(e.Dir, "agents", "demo")), estatetest.IsIncidentLog) // and the timeout's row
		if !slices.Equal(got, []string{"spawn-log.json.lock"}) {
			t.Fatalf("agent folder holds %q, want the lock only", got)
		}
	})
}

func hostnameOf(t *testing.T) string {
	t.Helper()
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A folder sync that fails after the spawn-log's rename (or the board's) is
// not a failed open: the record has landed and is returned with a
// *locking.NotSyncedError, never with an empty record (a caller that got no
// id would open the dispatch again).
func TestSyncFailureAfterTheCommitReturnsTheRecord(t *testing.T) {
	for _, after := range []string{"spawn-log", "board"} {
		t.Run(after, func(t *testing.T) {
			estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
				ffs := faultfs.New(e.FS)
				o := opts()
				renamed := 0
				lockspec.SetOnStep(&o, func(s lockspec.Step) {
					if s == lockspec.StepCommitRenamed {
						renamed++
						dir := "agents/demo"
						if after == "board" {
							dir = "agents/demo/board"
						}
						ffs.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: dir, Err: syscall.EIO, Times: 1})
					}
				})
				rec, err := dispatch.Open(context.Background(), ffs, "demo", "x", o)
				var ns *locking.NotSyncedError
				if !errors.As(err, &ns) || !errors.Is(err, syscall.EIO) {
					t.Fatalf("err = %v, want a *locking.NotSyncedError", err)
				}
				if rec.ID != 1 || renamed != 1 {
					t.Fatalf("record %+v after %d commits; want dispatch 1, committed once", rec, renamed)
				}
				log, err := spawnlog.Read(e.FS, "demo")
				if err != nil || len(log.Records) != 1 {
					t.Fatalf("spawn-log %+v, %v; want the one record", log, err)
				}
				b, err := board.Read(e.FS, "demo")
				if err != nil || !b.Has(1) {
					t.Fatalf("board %+v, %v; want dispatch 1 on it", b, err)
				}
			})
		})
	}
}

// caseFolding is a fresh estate on a volume that ignores case
// (vfstest.FoldCase over a temp folder): its folder on disk and its FS.
func caseFolding(t *testing.T) (string, vfs.FS) {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return dir, vfstest.FoldCase(o)
}

// On a volume that ignores case, an open of log where agents/Log is is
// refused with both spellings before anything is written: no lock, no
// record, no board. Log itself opens as before.
func TestOpenRefusesAnotherSpellingOfAnAgent(t *testing.T) {
	dir, fsys := caseFolding(t)
	if _, err := dispatch.Open(context.Background(), fsys, "Log", "one", opts()); err != nil {
		t.Fatal(err)
	}
	before := estatetest.Snapshot(t, dir)
	_, err := dispatch.Open(context.Background(), fsys, "log", "two", opts())
	var se *estate.SpellingError
	if !errors.As(err, &se) || se.Agent != "log" || se.OnDisk != "Log" {
		t.Fatalf("Open(log) beside Log = %v, want a *estate.SpellingError spelled Log on disk", err)
	}
	if after := estatetest.Snapshot(t, dir); !maps.Equal(before, after) {
		t.Errorf("the refused open changed the estate: %q", after)
	}
	if rec, err := dispatch.Open(context.Background(), fsys, "Log", "three", opts()); err != nil || rec.ID != 2 {
		t.Errorf("Open(Log) = %v, %v; want id 2", rec, err)
	}
}

// Two writers making Log and log at once: the one whose mkdir finds the
// other's folder already there is refused once its folder is made, before
// it takes the lock, and writes nothing in the other's folder.
func TestOpenRacingAnotherSpellingIsRefused(t *testing.T) {
	dir, fsys := caseFolding(t)
	raced := &otherWriterFirst{FS: fsys, name: estate.AgentDir("log"), other: estate.AgentDir("Log")}
	_, err := dispatch.Open(context.Background(), raced, "log", "two", opts())
	var se *estate.SpellingError
	if !errors.As(err, &se) || se.OnDisk != "Log" {
		t.Fatalf("Open(log) racing Log = %v, want a *estate.SpellingError spelled Log on disk", err)
	}
	if !raced.done {
		t.Fatal("the other writer's mkdir never ran")
	}
	if got, want := estatetest.Snapshot(t, dir), map[string]string{"agents/": "", "agents/Log/": ""}; !maps.Equal(got, want) {
		t.Errorf("the estate holds %q; want the other writer's folder alone, empty", got)
	}
}

// otherWriterFirst makes other just before the first Mkdir of name, as a
// writer of another spelling would, between this writer's check and its
// mkdir.
type otherWriterFirst struct {
	vfs.FS
	name, other string
	done        bool
}

func (o *otherWriterFirst) Mkdir(name string, perm fs.FileMode) error {
	if name == o.name && !o.done {
		o.done = true
		if err := o.FS.Mkdir(o.other, perm); err != nil {
			return err
		}
	}
	return o.FS.Mkdir(name, perm)
}

// On a spawn-log its folder lists twice, a lookup finding the newer copy,
// pa dispatch list shows dispatch 2; the next open keeps that copy (the one
// a lookup finds) and gives id 3, never 2 again.
func TestOpenNeverGivesAgainAnIDAReaderWasShown(t *testing.T) {
	older := []byte(`{"version":1,"nextId":2,"records":[{"id":1,"title":"one"}]}`)
	newer := []byte(`{"version":1,"nextId":3,"records":[{"id":1,"title":"one"},{"id":2,"title":"two"}]}`)
	_, newerFirst, err := crashfs.Doubled(estate.SpawnLogPath("demo"), older, newer)
	if err != nil {
		t.Fatal(err)
	}
	writeBoard(t, newerFirst, "demo", `{"version":1,"items":[{"dispatchId":1}]}`)
	if log, err := spawnlog.Read(newerFirst, "demo"); err != nil || len(log.Records) != 2 {
		t.Fatalf("the list shows %+v (%v); want dispatches 1 and 2", log.Records, err)
	}
	rec, err := dispatch.Open(context.Background(), newerFirst, "demo", "three", opts())
	if err != nil || rec.ID != 3 {
		t.Fatalf("the open = %+v, %v; want id 3: id 2 was shown by the list", rec, err)
	}
	log, err := spawnlog.Read(newerFirst, "demo")
	if err != nil || len(log.Records) != 3 || log.Records[1].Title != "two" {
		t.Errorf("the spawn-log holds %+v (%v); want one, two, three", log.Records, err)
	}
}
