package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// The lines of `pa dispatch open` for a lost lock (row R24 and a writer
// fenced out until its wait ran out): exit 2, one line leading with the
// lock, naming the dispatch id or the holder now, the whole agent, and the
// estate's --home when it is not the default.
func TestOpenErrorLines(t *testing.T) {
	live := locktest.LivePID(t)
	e := estatetest.New(t, estatetest.Classes[0])
	// The expected lines are written out whole, so that a fault in how the
	// command is built (the --home, the quoting of the agent) shows.
	for _, tc := range []struct{ home, pa, agent, want string }{
		{"", "pa", "demo", "agents/demo/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa board repair --agent demo"},
		{"", "pa", "-dash", "agents/-dash/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa board repair --agent=-dash"},
		{"/tmp/X", "pa --home /tmp/X", "demo", "agents/demo/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa --home /tmp/X board repair --agent demo"},
		{"/tmp/X", "pa --home /tmp/X", "-dash", "agents/-dash/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa --home /tmp/X board repair --agent=-dash"},
		{"", "pa", "a b", "agents/a b/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa board repair --agent 'a b'"},
		{"", "pa", "it's", `agents/it's/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa board repair --agent 'it'\''s'`},
		{"/tmp/X", "pa --home /tmp/X", "-a b", "agents/-a b/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; put it there with pa --home /tmp/X board repair --agent='-a b'"},
	} {
		a := advice{pa: tc.pa, home: tc.home, agent: tc.agent}
		lost := &dispatch.NotOnBoardError{Agent: tc.agent, DispatchID: 7, Err: locking.ErrLockLost}
		err := openError(e.FS, a, time.Second, spawnlog.Record{ID: 2}, lost, locking.Options{})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitProblem || ee.msg != tc.want {
			t.Errorf("R24 line for %s in %q: %v; want exit 2 and\n%q", tc.agent, tc.home, err, tc.want)
		}
	}
	// A board write that failed after the commit for another reason (an
	// FS error): exit 2, the id and the reason, escaped.
	failed := &dispatch.NotOnBoardError{Agent: "demo", DispatchID: 7, Err: fmt.Errorf("rename agents/demo/board/board.json.tmp-x: %w \x1b[2J", syscall.EIO)}
	err := openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{ID: 7}, failed, locking.Options{})
	var ee *exitError
	if want := `agents/demo/spawn-log.json.lock (no holder): dispatch 7 is in agents/demo/spawn-log.json but not on the board: rename agents/demo/board/board.json.tmp-x: input/output error \x1b[2J; put it there with pa board repair --agent demo`; !errors.As(err, &ee) || ee.code != exitProblem || ee.msg != want {
		t.Errorf("a failed board write: %v; want exit 2 and\n%q", err, want)
	}
	if got := programFor("/tmp/X"); got != "pa --home /tmp/X" {
		t.Errorf("Program = %q; want pa --home /tmp/X", got)
	}

	// Fenced out until the wait ran out, with a live holder now.
	estatetest.WriteFile(t, e.Dir, "agents/demo/spawn-log.json.lock", lockJSON(live, hostname(), time.Now()))
	a := advice{pa: "pa --home /tmp/X", home: "/tmp/X", agent: "demo"}
	err = openError(e.FS, a, time.Second, spawnlog.Record{}, fmt.Errorf("x: %w", locking.ErrLockLost), locking.Options{})
	lead := fmt.Sprintf("agents/demo/spawn-log.json.lock held by pid %d ", live)
	if !errors.As(err, &ee) || ee.code != exitProblem || !strings.HasPrefix(ee.msg, lead) ||
		!strings.Contains(ee.msg, "pa --home /tmp/X dispatch unlock --force --agent demo, "+forceWhen) {
		t.Errorf("lost-lock line: %v; want exit 2 leading with %q and naming --force in /tmp/X", err, lead)
	}
}

// Ctrl-C while open waits for a held lock (the context ends) is a lock
// outcome: exit 2 and one line leading with the lock and its holder's pid
// (as read then), saying nothing was written and naming the command that
// clears it; not "context canceled" and exit 1.
func TestOpenInterruptedWhileWaiting(t *testing.T) {
	live := locktest.LivePID(t)
	home := t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
	before := estatetest.Snapshot(t, home)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as main's signal.NotifyContext does on SIGINT
	var stdout, stderr strings.Builder
	code := run(ctx, []string{"--home", home, "dispatch", "open", "--agent", "demo", "--wait", "1m"}, &stdout, &stderr)
	lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host ", live)
	tail := "): interrupted while waiting for it: nothing written; clear it with " + programFor(home) + " dispatch unlock --force --agent demo, " + forceWhen + "\n"
	if got := stderr.String(); code != exitProblem || !strings.HasPrefix(got, lead) || !strings.HasSuffix(got, tail) ||
		strings.Count(got, "\n") != 1 || stdout.String() != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line %s...%s", code, stdout.String(), got, lead, tail)
	}
	// Nothing written: every file is as it was (open makes the agent's
	// board folder before it waits for the lock, as it did before).
	after := estatetest.Snapshot(t, home)
	for name, content := range after {
		if was, ok := before[name]; !strings.HasSuffix(name, "/") && (!ok || was != content) {
			t.Errorf("%s changed: %q -> %q", name, was, content)
		}
	}
}

// A record that landed but whose folder sync failed is named by its id,
// exit 2, with a warning not to open it again.
func TestOpenNotSyncedLine(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	a := advice{pa: "pa", agent: "demo"}
	ns := &locking.NotSyncedError{Name: "agents/demo/spawn-log.json", Err: syscall.EIO}
	err := openError(e.FS, a, time.Second, spawnlog.Record{ID: 4}, ns, locking.Options{})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitProblem || !strings.HasPrefix(ee.msg, "agents/demo/spawn-log.json.lock (no holder): dispatch 4 is recorded, but ") ||
		!strings.Contains(ee.msg, "do not open it again") {
		t.Fatalf("line %v; want exit 2 naming dispatch 4", err)
	}
}

// TestBadAgentCreatesNoEstate: a bad --agent is refused before anything is
// touched: open, the only command that creates the estate's folder, does
// not create it for an agent name it refuses.
func TestBadAgentCreatesNoEstate(t *testing.T) {
	for _, agent := range []string{"..", ".x", "a/b", "a\x01b", " a"} {
		home := filepath.Join(t.TempDir(), "home")
		var o, e bytes.Buffer
		if code := run(context.Background(), []string{"--home", home, "dispatch", "open", "--agent", agent, "--title", "t"}, &o, &e); code != exitUsage {
			t.Errorf("open --agent %q: exit %d (%q); want %d", agent, code, e.String(), exitUsage)
		}
		if _, err := os.Lstat(home); err == nil {
			t.Errorf("open --agent %q created the estate %s; want nothing touched", agent, home)
		}
	}
}

// TestArgsAreTakenByteForByte: pa takes its arguments as they are. An
// --agent that is not valid UTF-8 is a bad agent name (exit 1, nothing
// written), never turned into another agent's name (kong's string mapper
// transcodes through JSON, which replaces invalid UTF-8 with U+FFFD); a
// --home that is not valid UTF-8 is refused as pa refuses it (exit 1),
// never a folder named with U+FFFD created instead.
func TestArgsAreTakenByteForByte(t *testing.T) {
	home := t.TempDir()
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"--home", home, "dispatch", "open", "--agent", "\xff\xfe", "--title", "t"}, &o, &e)
	if code != exitUsage {
		t.Errorf("open --agent \\xff\\xfe: exit %d (stdout %q, stderr %q); want %d", code, o.String(), e.String(), exitUsage)
	}
	if ents, _ := os.ReadDir(filepath.Join(home, "agents")); len(ents) != 0 {
		t.Errorf("open --agent \\xff\\xfe wrote agent folder %q; want nothing written", ents[0].Name())
	}

	parent := t.TempDir()
	raw := filepath.Join(parent, "h\xff")
	o.Reset()
	e.Reset()
	if code := run(context.Background(), []string{"--home", raw, "dispatch", "open", "--agent", "demo", "--title", "t"}, &o, &e); code != exitUsage {
		t.Errorf("open --home <not UTF-8>: exit %d (stderr %q); want %d", code, e.String(), exitUsage)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("open --home %q created %q; want nothing created", raw, ents[0].Name())
	}
}

// TestTitleNotUTF8IsRefused: a --title that is not valid UTF-8 is a usage
// error (exit 1) that creates and writes nothing, never stored with U+FFFD
// in place of its bytes; the library refuses it the same way
// (spawnlog.ErrTitleNotUTF8) before it touches the estate.
func TestTitleNotUTF8IsRefused(t *testing.T) {
	home := filepath.Join(t.TempDir(), "estate")
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"--home", home, "dispatch", "open", "--agent", "demo", "--title", "bad\xffutf"}, &o, &e)
	if code != exitUsage || o.Len() != 0 || !bytes.Contains(e.Bytes(), []byte("--title is not valid UTF-8")) {
		t.Errorf("open --title bad\\xffutf: exit %d, stdout %q, stderr %q; want %d and the --title line", code, o.String(), e.String(), exitUsage)
	}
	if _, err := os.Lstat(home); !os.IsNotExist(err) {
		t.Errorf("open --title bad\\xffutf left %s (Lstat: %v); want nothing created", home, err)
	}

	lib := t.TempDir()
	fsys, err := osfs.New(lib)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spawnlog.Append(context.Background(), fsys, "demo", "bad\xffutf", nil, locking.Options{}); !errors.Is(err, spawnlog.ErrTitleNotUTF8) {
		t.Errorf("spawnlog.Append with a title not UTF-8: %v; want ErrTitleNotUTF8", err)
	}
	if ents, _ := os.ReadDir(lib); len(ents) != 0 {
		t.Errorf("spawnlog.Append with a title not UTF-8 created %q; want nothing", ents[0].Name())
	}
}
