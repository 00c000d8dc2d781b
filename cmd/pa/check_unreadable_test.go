package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// A file of an agent that cannot be read as one (a directory where the
// board or the spawn-log should be, a file where a folder should be) is a
// problem line of board check, exit 2, in plain words, with --json kind
// "unreadable", and the other agents are still checked: never a raw
// syscall error with exit 1.
func TestBoardCheckReportsUnreadableFiles(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	for _, agent := range []string{"a", "b", "c", "ok"} {
		if r := c.run(t, home, "dispatch", "open", "--agent", agent); r.code != 0 {
			t.Fatalf("open %s: exit %d, %q", agent, r.code, r.stderr)
		}
	}
	mkdir := func(name string) {
		if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(name)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(name string) {
		if err := os.RemoveAll(filepath.Join(home, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	remove("agents/a/board/board.json")
	mkdir("agents/a/board/board.json")
	remove("agents/b/board")
	estatetest.WriteFile(t, home, "agents/b/board", "not a folder")
	remove("agents/c/spawn-log.json")
	mkdir("agents/c/spawn-log.json")
	const fix = "; look at it and fix or move it by hand"
	want := []string{
		"agents/a/board/board.json cannot be read: it is a directory, not a regular file" + fix,
		"agents/b/board cannot be read: it is a regular file, not a folder" + fix,
		"agents/c/spawn-log.json cannot be read: it is a directory, not a regular file" + fix,
	}
	r := c.run(t, home, "board", "check")
	if r.code != exitProblem || r.stdout != strings.Join(want, "\n")+"\n" || r.stderr != "" {
		t.Errorf("board check: exit %d, stdout %q, stderr %q; want exit 2 and\n%s", r.code, r.stdout, r.stderr, strings.Join(want, "\n"))
	}
	r = c.run(t, home, "board", "check", "--agent", "a")
	if r.code != exitProblem || r.stdout != want[0]+"\n" {
		t.Errorf("board check --agent a: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want[0])
	}
	r = c.run(t, home, "board", "check", "--json")
	var js struct {
		Problems []struct{ Kind, Agent, Path, Error, Line string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != exitProblem || len(js.Problems) != 3 {
		t.Fatalf("board check --json: exit %d, stdout %q (%v); want exit 2 and three problems", r.code, r.stdout, err)
	}
	for i, p := range js.Problems {
		if p.Kind != "unreadable" || p.Line != want[i] || p.Error == "" || !strings.HasPrefix(want[i], p.Path+" ") {
			t.Errorf("board check --json: problem %d = %+v; want kind unreadable and the line %q", i, p, want[i])
		}
	}
	estatetest.WriteFile(t, home, "agents/d", "not a folder")
	r = c.run(t, home, "board", "check", "--agent", "d")
	if want := "agents/d cannot be read: it is a regular file, not an agent's folder" + fix + "\n"; r.code != exitProblem || r.stdout != want {
		t.Errorf("board check --agent d: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
}

// An error reading an agent's file that says nothing of its shape (an
// injected one here) is still a problem of that agent, not an exit 1.
func TestBoardCheckReportsAnyReadErrorAsAProblem(t *testing.T) {
	other := errors.New("disk on fire")
	home, fsys := faultEstate(t, false, faultfs.Rule{Op: faultfs.OpOpenFile, Match: "board.json",
		Err: &os.PathError{Op: "open", Path: "agents/demo/board/board.json", Err: other}})
	estatetest.WriteFile(t, home, logName, `{"version":1,"nextId":1,"records":[]}`)
	c := &checkCmd{}
	ps, err := c.checkOne(fsys, &globals{}, "demo")
	want := "agents/demo/board/board.json cannot be read: disk on fire; look at it and fix or move it by hand"
	if err != nil || len(ps) != 1 || ps[0].Kind != "unreadable" || ps[0].Line != want {
		t.Errorf("checkOne = %+v, %v; want one unreadable problem %q", ps, err, want)
	}
}
