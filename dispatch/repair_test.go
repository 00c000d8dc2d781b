package dispatch_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// repairLog is a spawn-log of five dispatches, as pa writes it.
const repairLog = `{
  "version": 1,
  "nextId": 6,
  "records": [
    {"id": 1, "agent": "demo", "title": "one", "openedAt": "2026-01-01T00:00:01.000Z", "pid": 1, "hostname": "h"},
    {"id": 2, "agent": "demo", "title": "two", "openedAt": "2026-01-01T00:00:02.000Z", "pid": 1, "hostname": "h"},
    {"id": 3, "agent": "demo", "title": "three <&> \"q\"", "openedAt": "2026-01-01T00:00:03.000Z", "pid": 1, "hostname": "h"},
    {"id": 4, "agent": "demo", "title": "four", "openedAt": "2026-01-01T00:00:04.000Z", "pid": 1, "hostname": "h"},
    {"id": 5, "agent": "demo", "title": "five", "openedAt": "2026-01-01T00:00:05.000Z", "pid": 1, "hostname": "h"}
  ]
}
`

// repairBoard has dispatches 4 and 2 (in that order, one written by hand
// with a field this version does not know) and 9, which is in no
// spawn-log: 1, 3 and 5 are missing.
var (
	repairItems = []string{`{"dispatchId":4,"title":"four","addedAt":"x","future":{"y":[1, 2]}}`, `{"dispatchId":2}`, `{"dispatchId":9,"title":"elsewhere"}`}
	repairBoard = `{"version":1,"items":[` + repairItems[0] + ",  " + repairItems[1] + "," + repairItems[2] + `]}`
)

// repairNow is the clock the repairs run with.
var repairNow = time.Date(2026, 2, 3, 4, 5, 6, 7_000_000, time.FixedZone("x", 3600))

func repairOpts() locking.Options {
	o := opts()
	o.Now = func() time.Time { return repairNow }
	return o
}

// boardIDs are the dispatch ids of agent's board, in order.
func boardIDs(t *testing.T, fsys vfs.FS, agent string) []int {
	t.Helper()
	b, err := board.Read(fsys, agent)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int{}
	for _, it := range b.Items {
		ids = append(ids, it.DispatchID)
	}
	return ids
}

// Repair adds every dispatch of the spawn-log that is missing from the
// board, in the spawn-log's order, after the board's items, with its
// record's title and the clock's addedAt: the old items keep their bytes
// and their order (one that is in no spawn-log too), the spawn-log is not
// touched, nothing is left beside the files, and the board then passes
// the check. A second repair adds nothing.
func TestRepairAddsTheMissingDispatchesInOrder(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), repairLog)
		estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), repairBoard)
		added, err := dispatch.Repair(context.Background(), e.FS, "demo", repairOpts())
		at := "2026-02-03T03:05:06.007Z"
		want := []board.Item{{DispatchID: 1, Title: "one", AddedAt: at}, {DispatchID: 3, Title: `three <&> "q"`, AddedAt: at}, {DispatchID: 5, Title: "five", AddedAt: at}}
		if err != nil || !slices.Equal(added, want) {
			t.Fatalf("Repair = %+v, %v; want %+v", added, err, want)
		}
		raw, err := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(estate.BoardPath("demo"))))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), "\n    "+strings.Join(repairItems, ",\n    ")+",\n    {\n      \"dispatchId\": 1,") {
			t.Errorf("the board is now\n%s\nwant its items as they were, then dispatch 1", raw)
		}
		if ids := boardIDs(t, e.FS, "demo"); !slices.Equal(ids, []int{4, 2, 9, 1, 3, 5}) {
			t.Errorf("board ids %v; want 4, 2, 9, then 1, 3, 5", ids)
		}
		if b, _ := board.Read(e.FS, "demo"); !slices.Equal(b.Items[3:], want) {
			t.Errorf("board items added %+v; want %+v", b.Items[3:], want)
		}
		if got := readEstate(t, e, estate.SpawnLogPath("demo")); got != repairLog {
			t.Errorf("the spawn-log is now\n%s\nwant it as it was", got)
		}
		if got, want := estatetest.Files(t, filepath.Join(e.Dir, "agents", "demo")), []string{"board/", "board/board.json", "spawn-log.json"}; !slices.Equal(got, want) {
			t.Errorf("agent folder holds %q; want %q", got, want)
		}
		// No dispatch is missing now; dispatch 9, in no spawn-log, is past
		// the spawn-log's next id: that (and only that) is still reported.
		if p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{}); err != nil || len(p) != 1 || p[0].Kind != dispatch.KindBehindBoard || p[0].DispatchID != 9 || p[0].NextID != 6 {
			t.Errorf("Check = %+v, %v; want only the board ahead of the spawn-log (dispatch 9, next id 6)", p, err)
		}
		before := estatetest.Snapshot(t, e.Dir)
		if added, err := dispatch.Repair(context.Background(), e.FS, "demo", repairOpts()); err != nil || len(added) != 0 {
			t.Errorf("the second Repair = %+v, %v; want nothing added", added, err)
		}
		if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
			t.Errorf("the second repair changed the estate: %q -> %q", before, after)
		}
	})
}

// A board that is missing, with its folder, gets every dispatch: the board
// folder is made under the lock.
func TestRepairMakesAMissingBoard(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), repairLog)
		added, err := dispatch.Repair(context.Background(), e.FS, "demo", repairOpts())
		if err != nil || len(added) != 5 {
			t.Fatalf("Repair = %+v, %v; want the five dispatches", added, err)
		}
		if ids := boardIDs(t, e.FS, "demo"); !slices.Equal(ids, []int{1, 2, 3, 4, 5}) {
			t.Errorf("board ids %v; want 1 to 5", ids)
		}
	})
}

// A board that has every dispatch is not written at all (no temp file, no
// rename), nor is anything else; an agent with no folder gets none made,
// and a spawn-log with no record (or none) leaves no board behind.
func TestRepairWritesNothingWhenTheBoardIsComplete(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for i := 1; i <= 3; i++ {
			if _, err := dispatch.Open(context.Background(), e.FS, "demo", "job", opts()); err != nil {
				t.Fatal(err)
			}
		}
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("empty"), `{"version":1,"nextId":1,"records":[]}`)
		if err := os.MkdirAll(filepath.Join(e.Dir, "agents", "bare"), 0o755); err != nil {
			t.Fatal(err)
		}
		before := estatetest.Snapshot(t, e.Dir)
		for _, agent := range []string{"demo", "empty", "bare", "nobody"} {
			ffs := faultfs.New(e.FS)
			added, err := dispatch.Repair(context.Background(), ffs, agent, repairOpts())
			if err != nil || added != nil {
				t.Errorf("%s: Repair = %+v, %v; want nothing added", agent, added, err)
			}
			if n, m := ffs.Calls(faultfs.OpRename, "board.json*"), ffs.Calls(faultfs.OpMkdir, ""); n != 0 || m != 0 {
				t.Errorf("%s: %d renames of the board and %d folders made; want none", agent, n, m)
			}
		}
		if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
			t.Errorf("the estate changed: %q -> %q", before, after)
		}
	})
}

// loseLock forces the lock of the demo spawn-log out from under its holder
// (as `pa dispatch unlock --force` does) and has a newer writer take it:
// the newer hold, which the test releases.
func loseLock(t *testing.T, fsys vfs.FS) *locking.Hold {
	t.Helper()
	ctx, name := context.Background(), estate.SpawnLogPath("demo")
	h, err := locking.Inspect(fsys, name, opts())
	if err != nil {
		t.Errorf("Inspect: %v", err)
		return nil
	}
	if err := locking.Unlock(ctx, fsys, name, h, true, opts()); err != nil {
		t.Errorf("unlock --force: %v", err)
		return nil
	}
	newer, err := locking.Acquire(ctx, fsys, name, opts())
	if err != nil {
		t.Errorf("the newer writer's Acquire: %v", err)
		return nil
	}
	return newer
}

// A repair whose lock is lost before the board's fence (forced out right
// after its publish, at acquire:published; or right before its fence, once
// the board's temp file is written and closed) writes nothing: the error
// matches locking.ErrLockLost and names the board and the lock, the board
// keeps its bytes, its temp file is gone, and the newer writer's lock is
// left in place.
func TestRepairAfterALostLockWritesNothing(t *testing.T) {
	for _, at := range []string{"acquire:published", "before the board's fence"} {
		t.Run(at, func(t *testing.T) {
			estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
				estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), repairLog)
				estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), repairBoard)
				before := estatetest.Snapshot(t, e.Dir)
				o := repairOpts()
				ffs := faultfs.New(e.FS)
				var newer *locking.Hold
				if at == "acquire:published" {
					lockspec.SetOnStep(&o, func(s lockspec.Step) {
						if s == lockspec.StepAcquirePublished && newer == nil {
							newer = loseLock(t, e.FS)
						}
					})
				} else {
					ffs.After(func(ev faultfs.Event) error {
						if ok, _ := path.Match("board.json.tmp-*", path.Base(ev.Name)); ok && ev.Op == faultfs.OpClose && newer == nil {
							newer = loseLock(t, e.FS)
						}
						return nil
					})
				}
				added, err := dispatch.Repair(context.Background(), ffs, "demo", o)
				if newer == nil {
					t.Fatalf("the lock was never lost (Repair = %+v, %v)", added, err)
				}
				want := "agents/demo/board/board.json is not written: the lock agents/demo/spawn-log.json.lock was lost before its rename: "
				if !errors.Is(err, locking.ErrLockLost) || added != nil || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("Repair = %+v, %v; want nothing added and an error matching ErrLockLost, %q...", added, err, want)
				}
				if h, err := locking.Inspect(e.FS, estate.SpawnLogPath("demo"), opts()); err != nil || h.Token != newer.Token() {
					t.Errorf("the lock after the repair: %+v, %v; want the newer writer's", h, err)
				}
				if err := newer.Release(); err != nil {
					t.Errorf("the newer writer's Release: %v", err)
				}
				if after := estatetest.WithoutIncidentLogs(estatetest.Snapshot(t, e.Dir)); !maps.Equal(before, after) {
					t.Errorf("the estate changed: %q -> %q", before, after)
				}
			})
		})
	}
}

// A spawn-log or a board that does not parse stops the repair with its
// *CorruptError, and nothing is written: the estate keeps its bytes.
func TestRepairOfACorruptFileWritesNothing(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for _, tc := range []struct{ log, board string }{
			{repairLog, ""}, {repairLog, "{"}, {repairLog, `{"version":9,"items":[]}`}, {repairLog, `{"version":1,"items":[{"title":"no id"}]}`},
			{repairLog, `{"version":1,"items":[]}}`}, {"", repairBoard}, {`{"version":1,"nextId":2,"records":[{"id":1}]}x`, repairBoard},
		} {
			estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), tc.log)
			estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), tc.board)
			before := estatetest.Snapshot(t, e.Dir)
			added, err := dispatch.Repair(context.Background(), e.FS, "demo", repairOpts())
			var bc *board.CorruptError
			var sc *spawnlog.CorruptError
			switch {
			case tc.log == repairLog && (!errors.As(err, &bc) || bc.Path != estate.BoardPath("demo")):
				t.Errorf("board %q: Repair = %+v, %v; want a *board.CorruptError naming the board", tc.board, added, err)
			case tc.log != repairLog && (!errors.As(err, &sc) || sc.Path != estate.SpawnLogPath("demo")):
				t.Errorf("spawn-log %q: Repair = %+v, %v; want a *spawnlog.CorruptError naming it", tc.log, added, err)
			case added != nil:
				t.Errorf("log %q, board %q: Repair added %+v", tc.log, tc.board, added)
			}
			if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
				t.Errorf("log %q, board %q: the estate changed: %q -> %q", tc.log, tc.board, before, after)
			}
		}
	})
}

// A lock held by a live process makes the repair time out with the
// holder, writing nothing; a bad agent name touches nothing.
func TestRepairOfAHeldLockOrABadAgentWritesNothing(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), repairLog)
		lock := `{"pid":` + strconv.Itoa(os.Getpid()) + `,"hostname":"` + hostnameOf(t) + `","token":"0123456789abcdef01234567","acquiredAt":"2026-01-01T00:00:00.000Z"}`
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo")+".lock", lock)
		before := estatetest.Snapshot(t, e.Dir)
		o := repairOpts()
		o.Timeout = locking.NoWait // its timeout's incident row is left out below
		var te *locking.TimeoutError
		if added, err := dispatch.Repair(context.Background(), e.FS, "demo", o); !errors.As(err, &te) || te.Holder.PID != os.Getpid() || added != nil {
			t.Errorf("Repair = %+v, %v; want a *locking.TimeoutError naming this process", added, err)
		}
		if after := estatetest.WithoutIncidentLogs(estatetest.Snapshot(t, e.Dir)); !maps.Equal(before, after) {
			t.Errorf("the estate changed: %q -> %q", before, after)
		}
		for _, agent := range []string{"../x", "a/b", ".hidden", ""} {
			if _, err := dispatch.Repair(context.Background(), e.FS, agent, o); !errors.Is(err, estate.ErrInvalidAgent) {
				t.Errorf("Repair(agent %q) = %v; want estate.ErrInvalidAgent", agent, err)
			}
		}
		if after := estatetest.WithoutIncidentLogs(estatetest.Snapshot(t, e.Dir)); !maps.Equal(before, after) {
			t.Errorf("the estate changed: %q -> %q", before, after)
		}
	})
}

// A board folder whose sync fails after the board's rename is a repair
// done: the items added are returned with the *locking.NotSyncedError, and
// they are on the board.
func TestRepairSyncFailureReturnsTheItems(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), repairLog)
		estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), repairBoard)
		ffs := faultfs.New(e.FS)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: "agents/demo/board", Err: syscall.EIO})
		added, err := dispatch.Repair(context.Background(), ffs, "demo", repairOpts())
		var ns *locking.NotSyncedError
		if !errors.As(err, &ns) || len(added) != 3 {
			t.Fatalf("Repair = %+v, %v; want the three items and a *locking.NotSyncedError", added, err)
		}
		if ids := boardIDs(t, e.FS, "demo"); !slices.Equal(ids, []int{4, 2, 9, 1, 3, 5}) {
			t.Errorf("board ids %v; want 4, 2, 9, then 1, 3, 5", ids)
		}
	})
}

// Repairs and opens at once: each goes under the lock, so every dispatch
// ends on the board exactly once (a repair that wrote a board read before
// an open's board write would drop that item, or add it again).
func TestRepairBesideOpens(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), repairLog)
		estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), `{"version":1,"items":[{"dispatchId":4},{"dispatchId":2}]}`)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := range 8 {
			wg.Go(func() {
				var err error
				if i%2 == 0 {
					_, err = dispatch.Repair(context.Background(), e.FS, "demo", repairOpts())
				} else {
					_, err = dispatch.Open(context.Background(), e.FS, "demo", fmt.Sprint("open ", i), repairOpts())
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		ids := boardIDs(t, e.FS, "demo")
		if slices.Sort(ids); !slices.Equal(ids, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Errorf("board ids %v; want 1 to 9 once each", ids)
		}
	})
}

// readEstate is the bytes of the slash name in e.
func readEstate(t *testing.T, e *estatetest.Estate, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// On a volume that ignores case, a repair of log where agents/Log is is
// refused with both spellings before the lock is taken: nothing written.
func TestRepairRefusesAnotherSpellingOfAnAgent(t *testing.T) {
	dir, fsys := caseFolding(t)
	if _, err := dispatch.Open(context.Background(), fsys, "Log", "one", opts()); err != nil {
		t.Fatal(err)
	}
	estatetest.WriteFile(t, dir, estate.BoardPath("Log"), `{"version":1,"items":[]}`)
	before := estatetest.Snapshot(t, dir)
	added, err := dispatch.Repair(context.Background(), fsys, "log", repairOpts())
	var se *estate.SpellingError
	if !errors.As(err, &se) || se.OnDisk != "Log" || added != nil {
		t.Fatalf("Repair(log) beside Log = %v, %v; want a *estate.SpellingError spelled Log on disk", added, err)
	}
	if after := estatetest.Snapshot(t, dir); !maps.Equal(before, after) {
		t.Errorf("the refused repair changed the estate: %q", after)
	}
}

// A repair over a spawn-log its folder lists twice (a power cut inside an
// exFAT rename over it) reads it only once the acquire has settled it, so
// the dispatches it puts on the board are of the one copy left, for good:
// an open whose rename then fails (its commit not made), and the open
// after it, find a spawn-log the board is not ahead of, and go through.
func TestRepairOverADoubledSpawnLogLeavesOpensWorking(t *testing.T) {
	older := []byte(`{"version":1,"nextId":2,"records":[{"id":1,"title":"one"}]}`)
	newer := []byte(`{"version":1,"nextId":3,"records":[{"id":1,"title":"one"},{"id":2,"title":"two"}]}`)
	olderFirst, newerFirst, err := crashfs.Doubled(estate.SpawnLogPath("demo"), older, newer)
	if err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]*crashfs.FS{"older first": olderFirst, "newer first": newerFirst} {
		t.Run(name, func(t *testing.T) {
			writeBoard(t, fsys, "demo", `{"version":1,"items":[{"dispatchId":1}]}`)
			added, err := dispatch.Repair(context.Background(), fsys, "demo", repairOpts())
			if err != nil {
				t.Fatal(err)
			}
			ff := faultfs.New(fsys)
			ff.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "spawn-log.json", Err: syscall.EIO, Times: 1})
			if _, err := dispatch.Open(context.Background(), ff, "demo", "three", opts()); !errors.Is(err, syscall.EIO) {
				t.Fatalf("the open whose rename fails = %v, want its EIO", err)
			}
			rec, err := dispatch.Open(context.Background(), fsys, "demo", "four", opts())
			if err != nil {
				t.Fatalf("after a repair that added %v and an open that failed, the next open = %v; want it to go through", added, err)
			}
			if n := listedIn(t, fsys, estate.SpawnLogPath("demo")); n != 1 {
				t.Errorf("the spawn-log is listed %d times, want once", n)
			}
			log, err := spawnlog.Read(fsys, "demo")
			if err != nil || log.Records[len(log.Records)-1].ID != rec.ID {
				t.Errorf("spawn-log %+v (%v); want dispatch %d last", log.Records, err, rec.ID)
			}
		})
	}
}

// listedIn is how many times name's folder lists it.
func listedIn(t *testing.T, fsys vfs.FS, name string) int {
	t.Helper()
	entries, err := fsys.ReadDir(path.Dir(name))
	if err != nil {
		t.Fatal(err)
	}
	return vfs.CountNamed(entries, path.Base(name))
}
