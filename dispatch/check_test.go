package dispatch_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
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
