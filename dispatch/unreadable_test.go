package dispatch_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// A lock, spawn-log or board that cannot be read as a file is one
// unreadable problem of the agent, in plain words, and the check goes on
// with what it can read; an error Check cannot call unreadable is returned
// for the caller to report (dispatch.UnreadableProblem).
func TestCheckReportsUnreadableFiles(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	log := `{"version":1,"nextId":2,"records":[{"id":1,"agent":"x","title":"","openedAt":"","pid":1,"hostname":""}]}`
	mkdir := func(name string) {
		if err := os.MkdirAll(filepath.Join(e.Dir, filepath.FromSlash(name)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// a: a directory where the board should be.
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("a"), log)
	mkdir(estate.BoardPath("a"))
	// b: a file where the board's folder should be.
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("b"), log)
	estatetest.WriteFile(t, e.Dir, "agents/b/board", "not a folder")
	// c: a directory where the spawn-log should be.
	mkdir(estate.SpawnLogPath("c"))
	// d: a file where the agent's folder should be.
	estatetest.WriteFile(t, e.Dir, "agents/d", "not a folder")
	for agent, want := range map[string]dispatch.Problem{
		"a": {Path: estate.BoardPath("a"), Err: "it is a directory, not a regular file"},
		"b": {Path: "agents/b/board", Err: "it is a regular file, not a folder"},
		"c": {Path: estate.SpawnLogPath("c"), Err: "it is a directory, not a regular file"},
		"d": {Path: "agents/d", Err: "it is a regular file, not an agent's folder"},
	} {
		p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{})
		if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindUnreadable || p[0].Agent != agent || p[0].Path != want.Path || p[0].Err != want.Err {
			t.Errorf("Check(%s) = %+v, %v; want one unreadable problem of %s: %s", agent, p, err, want.Path, want.Err)
			continue
		}
	}

	// No permission on the lock (an injected EACCES: the tests may run as
	// root): one unreadable problem, and the spawn-log and board are still
	// checked (dispatch 1 is not on the board).
	f := faultfs.New(e.FS)
	f.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "spawn-log.json.lock", Err: &os.PathError{Op: "open", Path: "agents/e/spawn-log.json.lock", Err: syscall.EACCES}})
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("e"), log)
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("e")+".lock", "{}")
	p, err := dispatch.Check(f, "e", dispatch.CheckOptions{})
	if err != nil || len(p) != 2 || p[0].Kind != dispatch.KindUnreadable || p[0].Err != "permission denied" || p[1].Kind != dispatch.KindNotOnBoard {
		t.Errorf("Check(e) with the lock denied = %+v, %v; want unreadable (permission denied), then not-on-board", p, err)
	}

	// An error that says nothing of the file's shape is returned, and
	// UnreadableProblem words it.
	other := errors.New("disk on fire")
	g := faultfs.New(e.FS)
	g.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "board.json", Err: &os.PathError{Op: "open", Path: estate.BoardPath("e"), Err: other}})
	if _, err := dispatch.Check(g, "e", dispatch.CheckOptions{}); !errors.Is(err, other) {
		t.Errorf("Check(e) with the board failing = %v; want the error returned", err)
	} else if up := dispatch.UnreadableProblem(g, "e", err); up.Kind != dispatch.KindUnreadable || up.Path != estate.BoardPath("e") || up.Err != "disk on fire" {
		t.Errorf("UnreadableProblem = %+v; want the board, disk on fire", up)
	}
}
