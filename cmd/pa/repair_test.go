package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// threeRecords is a spawn-log of three dispatches of agent.
func threeRecords(agent string) string {
	rec := func(id int, title string) string {
		b, _ := json.Marshal(map[string]any{"id": id, "agent": agent, "title": title, "openedAt": "2026-01-01T00:00:00.000Z", "pid": 1, "hostname": "h"})
		return string(b)
	}
	return `{"version":1,"nextId":4,"records":[` + rec(1, "one") + "," + rec(2, "two \x1b[2J \"q\"") + "," + rec(3, "three") + `]}`
}

// twoItems is a board with dispatches 1 and 3 of three, one with a field
// this version does not know: dispatch 2 is missing.
const twoItems = `{"version":1,"items":[{"dispatchId":1,"title":"one","addedAt":"x","future":[1, 2]},{"dispatchId":3,"title":"three","addedAt":"y"}]}`

// pasted runs command in a POSIX shell as an operator who pasted it would,
// with the class's build as the pa on the PATH and a clean environment
// (no PA_* of the caller's).
func pasted(t *testing.T, c binClass, command string) result {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the commands pa names are for a POSIX shell")
	}
	sh := shellOrSkip(t, "sh")
	bin := t.TempDir()
	if err := os.Symlink(c.bin(), filepath.Join(bin, "pa")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "-c", command)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PA_") && !strings.HasPrefix(kv, "PATH=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if c.errno != "" {
		cmd.Env = append(cmd.Env, "PA_FAULT_LINK_ERRNO="+c.errno)
	}
	return runCmd(t, cmd)
}

// A board that misses a dispatch (a spawn-log of three records, a board
// of two): pa board check names it with the whole command that repairs it;
// that command, pasted into a shell, puts it on the board (and says so, the
// title escaped), the board's items and the spawn-log keep their bytes,
// and board check is clean. A second repair says the board has every
// dispatch.
func TestBoardRepairOfTheLineBoardCheckNames(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		for _, tc := range []struct{ agent, flag string }{{"demo", "--agent demo"}, {"-a b", "--agent='-a b'"}} {
			home := t.TempDir()
			pa := plainHome(t, home)
			dir := "agents/" + tc.agent
			estatetest.WriteFile(t, home, dir+"/spawn-log.json", threeRecords(tc.agent))
			estatetest.WriteFile(t, home, dir+"/board/board.json", twoItems)
			command := pa + " board repair " + tc.flag
			r := c.run(t, home, "board", "check")
			want := "dispatch 2 is in " + dir + "/spawn-log.json but not on the board " + dir + "/board/board.json; put it there with " + command + "\n"
			if r.code != exitProblem || r.stdout != want {
				t.Fatalf("%s: board check: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.agent, r.code, r.stdout, r.stderr, want)
			}
			r = pasted(t, c, strings.TrimSuffix(strings.SplitN(r.stdout, "; put it there with ", 2)[1], "\n"))
			if want := `added dispatch 2 ("two \x1b[2J \"q\"") to ` + dir + "/board/board.json\n"; r.code != exitOK || r.stdout != want || r.stderr != "" {
				t.Errorf("%s: the pasted repair: exit %d, stdout %q, stderr %q; want exit 0 and %q", tc.agent, r.code, r.stdout, r.stderr, want)
			}
			if got := readFile(t, home, dir+"/spawn-log.json"); got != threeRecords(tc.agent) {
				t.Errorf("%s: the spawn-log is now %q; want it as it was", tc.agent, got)
			}
			b, err := board.Parse("b", []byte(readFile(t, home, dir+"/board/board.json")))
			if err != nil || len(b.Items) != 3 || b.Items[2].DispatchID != 2 || b.Items[2].Title != "two \x1b[2J \"q\"" ||
				!strings.Contains(readFile(t, home, dir+"/board/board.json"), `{"dispatchId":1,"title":"one","addedAt":"x","future":[1, 2]},`) {
				t.Errorf("%s: the board is now %+v, %v:\n%s\nwant its two items as they were, then dispatch 2", tc.agent, b, err, readFile(t, home, dir+"/board/board.json"))
			}
			if r := c.run(t, home, "board", "check"); r.code != exitOK || r.stdout != "" {
				t.Errorf("%s: board check after the repair: exit %d, stdout %q; want exit 0 and nothing", tc.agent, r.code, r.stdout)
			}
			before := estatetest.Snapshot(t, home)
			r = c.run(t, home, "board", "repair", "--agent="+tc.agent)
			if want := dir + "/board/board.json already has every dispatch of " + dir + "/spawn-log.json\n"; r.code != exitOK || r.stdout != want {
				t.Errorf("%s: the second repair: exit %d, stdout %q; want exit 0 and %q", tc.agent, r.code, r.stdout, want)
			}
			if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
				t.Errorf("%s: the second repair changed the estate", tc.agent)
			}
		}
	})
}

// board check --json carries the repair command of a dispatch not on the
// board; board repair --json prints one object with every item added.
func TestBoardRepairJSON(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	pa := plainHome(t, home)
	estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", threeRecords("demo"))
	estatetest.WriteFile(t, home, "agents/demo/board/board.json", `{"version":1,"items":[{"dispatchId":3}]}`)
	r := c.run(t, home, "board", "check", "--json")
	var check struct {
		Problems []struct {
			DispatchID int
			Command    string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &check); err != nil || len(check.Problems) != 2 ||
		check.Problems[0].Command != pa+" board repair --agent demo" || check.Problems[1].Command != check.Problems[0].Command {
		t.Errorf("board check --json: %q (%v); want two problems, each with the command %q", r.stdout, err, pa+" board repair --agent demo")
	}
	r = c.run(t, home, "board", "repair", "--json")
	var got struct {
		Added []struct {
			Agent, Path, Title, AddedAt string
			DispatchID                  int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK || strings.Count(r.stdout, "\n") != 1 || len(got.Added) != 2 {
		t.Fatalf("board repair --json: exit %d, stdout %q (%v); want exit 0 and one object with two items", r.code, r.stdout, err)
	}
	for i, want := range []struct {
		id    int
		title string
	}{{1, "one"}, {2, "two \x1b[2J \"q\""}} {
		a := got.Added[i]
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", a.AddedAt); err != nil || a.Agent != "demo" || a.Path != "agents/demo/board/board.json" || a.DispatchID != want.id || a.Title != want.title {
			t.Errorf("item %d: %+v; want dispatch %d (%q) of demo, added now", i, a, want.id, want.title)
		}
	}
	if strings.Contains(r.stdout, "\x1b") {
		t.Errorf("board repair --json: %q holds a raw escape", r.stdout)
	}
	if r := c.run(t, home, "board", "repair", "--json"); r.code != exitOK || r.stdout != `{"added":[]}`+"\n" {
		t.Errorf("board repair --json again: exit %d, stdout %q; want exit 0 and no item", r.code, r.stdout)
	}
}

// Without --agent every agent's board is repaired; an agent whose board
// does not parse is named on stderr (exit 1), its files untouched, and the
// others go on. With every board whole, one line says so.
func TestBoardRepairOfEveryAgent(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	for _, agent := range []string{"a", "b", "c"} {
		estatetest.WriteFile(t, home, "agents/"+agent+"/spawn-log.json", threeRecords(agent))
		estatetest.WriteFile(t, home, "agents/"+agent+"/board/board.json", twoItems)
	}
	estatetest.WriteFile(t, home, "agents/b/board/board.json", "{")
	r := c.run(t, home, "board", "repair")
	wantOut := `added dispatch 2 ("two \x1b[2J \"q\"") to agents/a/board/board.json` + "\n" + `added dispatch 2 ("two \x1b[2J \"q\"") to agents/c/board/board.json` + "\n"
	wantErr := "pa: agents/b/board/board.json does not parse: want a JSON object with version and items: it ends before its JSON is complete\n"
	if r.code != exitUsage || r.stdout != wantOut || r.stderr != wantErr {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1, stdout %q, stderr %q", r.code, r.stdout, r.stderr, wantOut, wantErr)
	}
	if got := readFile(t, home, "agents/b/board/board.json"); got != "{" {
		t.Errorf("the corrupt board is now %q; want it as it was", got)
	}
	estatetest.WriteFile(t, home, "agents/b/board/board.json", `{"version":1,"items":[{"dispatchId":1},{"dispatchId":2},{"dispatchId":3}]}`)
	if r := c.run(t, home, "board", "repair"); r.code != exitOK || r.stdout != "every board already has every dispatch of its spawn-log (3 agents)\n" {
		t.Errorf("every board whole: exit %d, stdout %q, stderr %q; want exit 0 and the line saying so", r.code, r.stdout, r.stderr)
	}
}

// A lock held by a live process is never broken: repair gives up after
// --wait with open's line (the holder, the unlock command with --home and
// when --force is right), exit 2, and writes nothing; a mistyped agent is
// a usage error that creates nothing.
func TestBoardRepairOfAHeldLock(t *testing.T) {
	live := locktest.LivePID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		pa := plainHome(t, home)
		estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", threeRecords("demo"))
		estatetest.WriteFile(t, home, "agents/demo/board/board.json", twoItems)
		estatetest.WriteFile(t, home, "agents/demo/spawn-log.json.lock", lockJSON(live, hostname(), time.Now()))
		before := estatetest.Snapshot(t, home)
		r := c.run(t, home, "board", "repair", "--agent", "demo", "--wait", "0")
		tail := "): gave up at once (--wait 0); clear it with " + pa + " dispatch unlock --force --agent demo, " + forceWhen + "\n"
		if r.code != exitProblem || r.stdout != "" || !strings.HasPrefix(r.stderr, fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d ", live)) || !strings.HasSuffix(r.stderr, tail) {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and the holder line ending %q", r.code, r.stdout, r.stderr, tail)
		}
		if r := c.run(t, home, "board", "repair", "--agent", "nobody"); r.code != exitUsage || !strings.HasPrefix(r.stderr, `pa: no agent "nobody" in the estate `) {
			t.Errorf("--agent nobody: exit %d, stderr %q; want exit 1 naming no such agent", r.code, r.stderr)
		}
		if after := estatetest.WithoutIncidentLogs(estatetest.Snapshot(t, home)); !maps.Equal(before, after) {
			t.Errorf("the estate changed: %q -> %q", before, after)
		}
	})
}

// The exit-2 lines of a repair whose lock was lost before the board's
// rename, or whose board landed but whose folder's sync failed: each leads
// with the lock, says what was written, and names one command.
func TestBoardRepairErrorLines(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	a := advice{pa: "pa --home /tmp/X", home: "/tmp/X", agent: "a b"}
	lost := fmt.Errorf("agents/a b/board/board.json is not written: %w", locking.ErrLockLost)
	synced := &locking.NotSyncedError{Name: "agents/a b/board/board.json", Err: &os.PathError{Op: "sync", Path: "agents/a b/board", Err: syscall.EIO}}
	for _, tc := range []struct {
		err   error
		added []board.Item
		want  string
	}{
		{lost, nil, "agents/a b/spawn-log.json.lock (no holder): this repair lost its lock before the board's rename; nothing was written; the lock is free now, try again"},
		{synced, []board.Item{{DispatchID: 2}}, "agents/a b/spawn-log.json.lock (no holder): agents/a b/board/board.json is written, but syncing its folder failed: sync agents/a b/board: input/output error; pa --home /tmp/X board check --agent 'a b' shows what is on it"},
	} {
		var ee *exitError
		if err := repairError(e.FS, a, time.Second, tc.added, tc.err, locking.Options{}); !errors.As(err, &ee) || ee.code != exitProblem || ee.msg != tc.want {
			t.Errorf("%v: %v; want exit 2 and\n%q", tc.err, err, tc.want)
		}
	}
}

// `pa board repair` over a provably dead holder's lock breaks it, repairs
// the board (exit 0) and says so in one line on stderr, in the words of
// dispatch open's break line, with stderr not a terminal; with --json,
// stderr stays empty.
func TestBoardRepairSaysItBrokeADeadHoldersLock(t *testing.T) {
	dead := locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, demoLog, threeRecords("demo"))
		estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(dead, hostname(), time.Now()))
		r := c.run(t, home, "board", "repair", "--agent", "demo")
		if re := brokeLineRE(dead, fmt.Sprintf("pid %d is gone", dead)); r.code != 0 || strings.Count(r.stdout, "\n") != 3 || !re.MatchString(r.stderr) {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, three items added and one line matching %s", r.code, r.stdout, r.stderr, re)
		}
		estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(dead, hostname(), time.Now()))
		r = c.run(t, home, "board", "repair", "--agent", "demo", "--json")
		if r.code != 0 || r.stdout != "{\"added\":[]}\n" || r.stderr != "" {
			t.Errorf("--json: exit %d, stdout %q, stderr %q; want exit 0, nothing added and nothing on stderr", r.code, r.stdout, r.stderr)
		}
	})
}
