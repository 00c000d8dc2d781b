package dispatch_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

func TestCheckReportsCorruptFiles(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("a"), "{\x1b[31m")
	estatetest.WriteFile(t, e.Dir, estate.BoardPath("b"), "nope")
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("b"), `{"version":1,"nextId":2,"records":[{"id":1}]}`)
	for _, agent := range []string{"a", "b"} {
		p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{})
		if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindCorrupt {
			t.Fatalf("Check(%s) = %+v, %v; want one corrupt problem", agent, p, err)
		}
		if why := p[0].Err; !strings.HasPrefix(why, "want a JSON object with version") || strings.Contains(why, "\x1b") || strings.Contains(why, "Go ") {
			t.Errorf("Check(%s) error %q; want what does not parse in plain words and no raw control character", agent, why)
		}
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "agents", "a", "board")); !os.IsNotExist(err) {
		t.Errorf("Check created the board folder (stat: %v); want it read-only", err)
	}
}

// Outside the default estate, the command of a lock-held problem names the

// estate with --home (whole, shell-quoted), so it acts on that estate when

// pasted into another shell; the line stays as the spec has it (leading

// with pa dispatch unlock and the pid, bounded), without the home.

// An empty or unreadable lock past the window reads as the lock itself

// ("is an empty lock (0 bytes, age ...)"), not as "held by an empty lock",

// and names --force; a tiny stale window prints as itself, not "0s".

// The lock-held line with what decided its holder's state beside the

// worst values a lock of this host can carry (a 240-character agent, a

// 255-character acquiredAt of control characters, a file time in 1902, the

// longest window below that age): it stays within the spec's bound, 362

// characters with the --force sentence, and 360 for a dead holder (which

// the envelope's cut never reaches: a dead holder's evidence always fits),

// the evidence cut to fit where it must (the longest, a holder alive in

// another pid namespace by its kernel lock, always is); --json's

// "evidence" keeps it whole.

// The spec's bound on the lock-held line (spec: pa board check): with the

// worst values a lock can carry (a 240-character agent, a 255-character

// host made of '"' or '\', pid 2147483647, a 255-character acquiredAt full

// of control characters, a file time in 1902, and the longest stale window

// below that age) the line leads with pa dispatch unlock and the pid, is at

// most 362 characters, names --force, and holds no raw control character.

// The commands a message names quote the agent for a POSIX shell. The

// expected strings are written out here, not built with the helpers.

// A lock-held problem's command quotes the agent: through Check.

// Opening a dispatch whose id is on the board already (an item put there
// by hand, or left by an earlier spawn-log that a power cut took) is
// refused with a *board.AheadError, and nothing is written: the id would
// name two dispatches. Once the spawn-log is ahead again, the open adds
// its dispatch after the board's items.
func TestOpenRefusesAnIDTheBoardListsAlready(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), `{"version":1,"items":[{"dispatchId":1,"title":"kept","addedAt":"2020-01-01T00:00:00.000Z","note":"mine"}]}`)
		before := estatetest.Snapshot(t, e.Dir)
		rec, err := dispatch.Open(context.Background(), e.FS, "demo", "new", opts())
		var ae *board.AheadError
		if !errors.As(err, &ae) || ae.ID != 1 || ae.MaxID != 1 || rec.ID != 0 {
			t.Fatalf("Open = %+v, %v; want a *board.AheadError for id 1", rec, err)
		}
		if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
			t.Errorf("the refused open changed the estate: %q -> %q", before, after)
		}
		estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), `{"version":1,"nextId":2,"records":[]}`)
		if rec, err := dispatch.Open(context.Background(), e.FS, "demo", "next", opts()); err != nil || rec.ID != 2 {
			t.Fatalf("Open with nextId 2 = %+v, %v; want dispatch 2", rec, err)
		}
		raw, err := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(estate.BoardPath("demo"))))
		if err != nil || strings.Count(string(raw), `"dispatchId"`) != 2 || !strings.Contains(string(raw), `"note":"mine"}`) {
			t.Errorf("board file %q, %v; want the item as it was, byte for byte, then dispatch 2", raw, err)
		}
	})
}

// The board check's stale window is the spec's LOCK_STALE_AFTER_MS.
func TestDefaultStaleWindowIsTheSpecs(t *testing.T) {
	if dispatch.DefaultStaleWindow != 60*time.Second {
		t.Fatalf("DefaultStaleWindow = %v; want the spec's 60s", dispatch.DefaultStaleWindow)
	}
}

// On a volume that ignores case, a check of log where agents/Log is is
// refused with both spellings: its findings would be Log's, reported as
// log's.
func TestCheckRefusesAnotherSpellingOfAnAgent(t *testing.T) {
	dir, fsys := caseFolding(t)
	if _, err := dispatch.Open(context.Background(), fsys, "Log", "one", opts()); err != nil {
		t.Fatal(err)
	}
	estatetest.WriteFile(t, dir, estate.BoardPath("Log"), `{"version":1,"items":[]}`)
	if p, err := dispatch.Check(fsys, "Log", dispatch.CheckOptions{}); err != nil || len(p) != 1 {
		t.Fatalf("Check(Log) = %+v, %v; want its one dispatch not on the board", p, err)
	}
	p, err := dispatch.Check(fsys, "log", dispatch.CheckOptions{})
	var se *estate.SpellingError
	if !errors.As(err, &se) || se.OnDisk != "Log" || p != nil {
		t.Fatalf("Check(log) beside Log = %+v, %v; want a *estate.SpellingError spelled Log on disk", p, err)
	}
}

// A spawn-log or a board its folder lists twice (a power cut inside an
// exFAT rename over it) is reported, each on its own, whichever copy a
// lookup finds; nothing else is, and nothing is written.
func TestCheckReportsANameListedTwice(t *testing.T) {
	older := []byte(`{"version":1,"nextId":2,"records":[{"id":1,"title":"one"}]}`)
	newer := []byte(`{"version":1,"nextId":3,"records":[{"id":1,"title":"one"},{"id":2,"title":"two"}]}`)
	logs := [2]*crashfs.FS{}
	var err error
	if logs[0], logs[1], err = crashfs.Doubled(estate.SpawnLogPath("a"), older, newer); err != nil {
		t.Fatal(err)
	}
	for i, fsys := range logs {
		writeBoard(t, fsys, "a", `{"version":1,"items":[{"dispatchId":1}]}`)
		ops := fsys.Ops()
		p, err := dispatch.Check(fsys, "a", dispatch.CheckOptions{})
		// Where a lookup finds the newer copy, its dispatch 2 (never put
		// on the board) is reported too.
		want := 1 + i
		if err != nil || len(p) != want || p[0].Kind != dispatch.KindListedTwice || p[0].Path != estate.SpawnLogPath("a") || p[0].Times != 2 ||
			i == 1 && (p[1].Kind != dispatch.KindNotOnBoard || p[1].DispatchID != 2) {
			t.Errorf("volume %d: Check = %+v, %v; want the spawn-log listed twice, then %d other problem (dispatch 2 off the board)", i, p, err, i)
		}
		if fsys.Ops() != ops {
			t.Errorf("volume %d: Check changed the volume", i)
		}
	}
	boards := [2]*crashfs.FS{}
	if boards[0], boards[1], err = crashfs.Doubled(estate.BoardPath("a"), []byte(`{"version":1,"items":[]}`), []byte(`{"version":1,"items":[{"dispatchId":1}]}`)); err != nil {
		t.Fatal(err)
	}
	for i, fsys := range boards {
		writeFileOn(t, fsys, estate.SpawnLogPath("a"), older)
		p, err := dispatch.Check(fsys, "a", dispatch.CheckOptions{InFlightGrace: -1})
		var kinds []dispatch.Kind
		for _, pr := range p {
			kinds = append(kinds, pr.Kind)
		}
		if err != nil || len(p) < 1 || p[0].Kind != dispatch.KindListedTwice || p[0].Path != estate.BoardPath("a") || slices.Contains(kinds[1:], dispatch.KindListedTwice) {
			t.Errorf("volume %d: Check = %+v, %v; want the board listed twice, first and once", i, p, err)
		}
	}
}

// A board that lists a dispatch the spawn-log has not given (its records
// lost, or an older copy put back) is reported, as open refuses there;
// one that lists only given ids is not.
func TestCheckReportsABoardAheadOfItsSpawnLog(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("a"), `{"version":1,"nextId":2,"records":[{"id":1,"title":"one"}]}`)
	estatetest.WriteFile(t, e.Dir, estate.BoardPath("a"), `{"version":1,"items":[{"dispatchId":1},{"dispatchId":2}]}`)
	p, err := dispatch.Check(e.FS, "a", dispatch.CheckOptions{})
	if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindBehindBoard || p[0].DispatchID != 2 || p[0].NextID != 2 || p[0].Path != estate.BoardPath("a") {
		t.Fatalf("Check = %+v, %v; want the board ahead: dispatch 2, next id 2", p, err)
	}
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("a"), `{"version":1,"nextId":3,"records":[{"id":1,"title":"one"},{"id":2,"title":"two"}]}`)
	if p, err := dispatch.Check(e.FS, "a", dispatch.CheckOptions{}); err != nil || len(p) != 0 {
		t.Errorf("Check = %+v, %v; want no problem once the spawn-log has given dispatch 2", p, err)
	}
}

// writeBoard makes agent's board hold data on fsys, its folder made.
func writeBoard(t *testing.T, fsys vfs.FS, agent, data string) {
	t.Helper()
	if err := vfs.MkdirAll(fsys, estate.BoardDir(agent), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFileOn(t, fsys, estate.BoardPath(agent), []byte(data))
}

// writeFileOn makes name hold data on fsys.
func writeFileOn(t *testing.T, fsys vfs.FS, name string, data []byte) {
	t.Helper()
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
