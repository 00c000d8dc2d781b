package board_test

import (
	"context"
	"errors"
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
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func opts() locking.Options { return locking.Options{Timeout: 2 * time.Second} }

// OpenDispatch puts every dispatch on the board under the spawn-log lock,
// and leaves nothing beside spawn-log.json, the board folder and board.json.
func TestOpenDispatchPatchesTheBoard(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		for i := 1; i <= 3; i++ {
			r, err := board.OpenDispatch(context.Background(), e.FS, "demo", "job", opts())
			if err != nil || r.ID != i {
				t.Fatalf("OpenDispatch #%d = %+v, %v; want id %d", i, r, err, i)
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
		if p, err := board.Check(e.FS, "demo", board.CheckOptions{}); err != nil || len(p) != 0 {
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
			_, err := board.OpenDispatch(context.Background(), e.FS, "demo", "x", opts())
			var ce *board.CorruptError
			if !errors.As(err, &ce) || ce.Path != estate.BoardPath("demo") || !strings.HasPrefix(err.Error(), "agents/demo/board/board.json does not parse: want a JSON object with version and items: ") {
				t.Errorf("board %q: OpenDispatch = %v; want a *board.CorruptError naming the board", doc, err)
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
			if _, err := board.OpenDispatch(context.Background(), e.FS, agent, "x", opts()); !errors.Is(err, estate.ErrInvalidAgent) {
				t.Errorf("OpenDispatch(agent %.40q) = %v; want estate.ErrInvalidAgent", agent, err)
			}
			if _, err := board.Check(e.FS, agent, board.CheckOptions{}); !errors.Is(err, estate.ErrInvalidAgent) {
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
		_, err := board.OpenDispatch(context.Background(), e.FS, "demo", "t", o)
		if !errors.Is(err, locking.ErrTimeout) {
			t.Fatalf("err = %v, want a timeout", err)
		}
		if got := estatetest.Files(t, filepath.Join(e.Dir, "agents", "demo")); !slices.Equal(got, []string{"spawn-log.json.lock"}) {
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
				o.OnStep = func(s locking.Step) {
					if s == locking.StepCommitRenamed {
						renamed++
						dir := "agents/demo"
						if after == "board" {
							dir = "agents/demo/board"
						}
						ffs.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: dir, Err: syscall.EIO, Times: 1})
					}
				}
				rec, err := board.OpenDispatch(context.Background(), ffs, "demo", "x", o)
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
