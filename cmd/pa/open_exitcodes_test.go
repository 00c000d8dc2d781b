package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/spawnlog"
)

// demoLog is the demo agent's spawn-log in an estate.
const demoLog = "agents/demo/spawn-log.json"

// The exit codes of pa for the outcomes that are neither plain success nor
// a held lock: a spawn-log that does not parse (1), a busy or changed
// unlock (2), a board that stops parsing after the spawn-log commit (2,
// naming the id) and a writer fenced out while the lock is free now (2).

// A board that already lists the id the spawn-log would give (the
// spawn-log missing, its records lost to a power cut, or put back from an
// older copy) makes open exit 1 with one line naming the board and both
// ids and what to do, and nothing in the estate changes.
func TestOpenBehindItsBoardExitsOneAndChangesNothing(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		for _, log := range []string{"", `{"version":1,"nextId":2,"records":[{"id":1}]}`} {
			home := t.TempDir()
			if log != "" {
				estatetest.WriteFile(t, home, demoLog, log)
			}
			estatetest.WriteFile(t, home, "agents/demo/board/board.json", `{"version":1,"items":[{"dispatchId":1},{"dispatchId":3}]}`)
			before := estatetest.Snapshot(t, home)
			r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t", "--wait", "0")
			next := "1"
			if log != "" {
				next = "2"
			}
			want := "pa: agents/demo/board/board.json lists dispatch 3, but the spawn-log's next id is " + next + ": the spawn-log is behind its board (its records were lost, or it is an older copy); nothing was written; put the spawn-log back from a copy, or move the board aside (keep it) to start a new board from the spawn-log\n"
			if r.code != exitUsage || r.stdout != "" || r.stderr != want {
				t.Errorf("spawn-log %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", log, r.code, r.stdout, r.stderr, want)
			}
			if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
				t.Errorf("spawn-log %q: the estate changed:\nbefore %q\nafter  %q", log, before, after)
			}
		}
	})
}

// A spawn-log that does not parse (two "records" arrays among them)
// makes open exit 1 with one line naming it, and nothing in the estate
// changes: not the spawn-log, not the board, no board folder, no lock and
// nothing beside them.
func TestOpenOnACorruptSpawnLogExitsOneAndChangesNothing(t *testing.T) {
	docs := []string{"", "{", "[]", `{"version":2,"nextId":1,"records":[]}`, `{"version":1,"nextId":"3","records":[]}`,
		// Two arrays: a rewrite would keep only the last (jsondoc.DuplicateKeyError).
		`{"version":1,"nextId":3,"records":[{"id":1}],"records":[{"id":2}]}`}
	eachBinClass(t, func(t *testing.T, c binClass) {
		for _, withBoard := range []bool{false, true} {
			for _, doc := range docs {
				home := t.TempDir()
				estatetest.WriteFile(t, home, demoLog, doc)
				if withBoard {
					estatetest.WriteFile(t, home, "agents/demo/board/board.json", `{"version":1,"items":[]}`)
				}
				before := estatetest.Snapshot(t, home)
				r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t", "--wait", "0")
				const lead = "pa: agents/demo/spawn-log.json does not parse: want a JSON object with version, nextId and records: "
				if r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, lead) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("board %v, spawn-log %q: exit %d, stdout %q, stderr %q; want exit 1 and one line leading with %q",
						withBoard, doc, r.code, r.stdout, r.stderr, lead)
				}
				if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
					t.Errorf("board %v, spawn-log %q: the estate changed:\nbefore %q\nafter  %q", withBoard, doc, before, after)
				}
			}
		}
	})
}

// claimName is the name of a breaker's claim on the lock whose bytes are
// content, owned by pid on host, as the lock names claims (spec: the table
// of names): <lock>.claim-<16 hex of sha256(lock bytes)>-<8 hex of
// sha256(hostname)>-<pid>-<24 hex>.
func claimName(lock, content, host string, pid int) string {
	sum := sha256.Sum256([]byte(content))
	return lock + ".claim-" + hex.EncodeToString(sum[:8]) + "-" + lockspec.HostHash(host) + "-" + strconv.Itoa(pid) + "-" + strings.Repeat("c", 24)
}

// Unlock without --force while another breaker's live claim is on a dead
// holder's lock waits its second, then exits 2 (busy) with one line naming
// the claim's owner and the one command, the same unlock again (no
// --force: spec, Unlock); the lock and the claim are left byte for byte.
func TestUnlockBusyExitsTwo(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	c := binClasses[0]
	home := t.TempDir()
	lock := demoLog + ".lock"
	content := lockJSON(dead, hostname(), time.Now())
	estatetest.WriteFile(t, home, lock, content)
	claim := claimName(lock, content, hostname(), live)
	estatetest.WriteFile(t, home, claim, `{}`)
	before := estatetest.Snapshot(t, home)

	r := c.run(t, home, "dispatch", "unlock", "--agent", "demo")
	pa := programFor(home)
	lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host ", dead)
	tail := fmt.Sprintf("): not removed, pid %d (host %s, claim %s) is breaking it; run %s dispatch unlock --agent demo again\n",
		live, lockspec.HostHash(hostname()), filepath.Base(claim), pa)
	if r.code != exitProblem || !strings.HasPrefix(r.stderr, lead) || !strings.HasSuffix(r.stderr, tail) ||
		!strings.Contains(r.stderr, " (dead, age ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line\n%s...%s", r.code, r.stderr, lead, tail)
	}
	wantOut := fmt.Sprintf("agents/demo/spawn-log.json.lock: held by pid %d on host ", dead)
	if !strings.HasPrefix(r.stdout, wantOut) || strings.Count(r.stdout, "\n") != 1 || strings.Contains(r.stdout, "removed") {
		t.Errorf("stdout %q; want the holder printed and nothing removed", r.stdout)
	}
	if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
		t.Errorf("a busy unlock changed the estate:\nbefore %q\nafter  %q", before, after)
	}
}

// hookWriter is an io.Writer for run's stdout that calls hook with each
// write before keeping it: a test acts there, between what pa printed and
// what it does next.
type hookWriter struct {
	strings.Builder
	hook func(string)
}

func (w *hookWriter) Write(p []byte) (int, error) {
	if w.hook != nil {
		w.hook(string(p))
	}
	return w.Builder.Write(p)
}

// lockWithToken is a lock's content like lockJSON's, with its own token.
func lockWithToken(pid int, host string, acquiredAt time.Time, token string) string {
	b, _ := json.Marshal(map[string]any{"pid": pid, "hostname": host, "token": token,
		"acquiredAt": acquiredAt.UTC().Format("2006-01-02T15:04:05.000Z")})
	return string(b)
}

// An unlock whose lock changed between its read (the holder it printed)
// and its removal removes nothing and exits 2, naming the same command to
// run again (--force when it was forced). Driven in-process through the
// unlock command: the lock is replaced (or removed) when unlock prints the
// holder, which it does after its read and before its removal.
func TestUnlockOfALockThatChangedExitsTwo(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	cases := []struct {
		name      string
		holder    int    // the pid of the lock unlock reads
		state     string // as printed
		force     bool
		replaced  string // the lock put in its place when the holder is printed; "" removes it
		wantAgain string // the command the line names to run again, after pa
	}{
		{"dead holder replaced", dead, "dead", false, lockWithToken(dead, hostname(), time.Now(), strings.Repeat("7b", 12)), " dispatch unlock --agent demo again\n"},
		{"forced, live holder replaced", live, "alive", true, lockWithToken(live, hostname(), time.Now(), strings.Repeat("7b", 12)), " dispatch unlock --force --agent demo again, " + forceWhen + "\n"},
		{"dead holder removed", dead, "dead", false, "", " dispatch unlock --agent demo again\n"},
		{"forced, live holder removed", live, "alive", true, "", " dispatch unlock --force --agent demo again, " + forceWhen + "\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			lock := filepath.Join(home, "agents", "demo", "spawn-log.json.lock")
			estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(tc.holder, hostname(), time.Now()))
			replaced := false
			stdout := &hookWriter{hook: func(s string) {
				if replaced || !strings.Contains(s, ": held by pid ") {
					return
				}
				replaced = true
				var err error
				if tc.replaced == "" {
					err = os.Remove(lock)
				} else {
					err = os.WriteFile(lock, []byte(tc.replaced), 0o644)
				}
				if err != nil {
					t.Error(err)
				}
			}}
			var stderr strings.Builder
			args := []string{"--home", home, "dispatch", "unlock", "--agent", "demo"}
			if tc.force {
				args = append(args, "--force")
			}
			code := run(context.Background(), args, stdout, &stderr)
			if !replaced {
				t.Fatalf("unlock never printed the holder: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
			}
			lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host ", tc.holder)
			tail := ") changed since it was read: nothing removed; run " + programFor(home) + tc.wantAgain
			if code != exitProblem || !strings.HasPrefix(stderr.String(), lead) || !strings.HasSuffix(stderr.String(), tail) ||
				!strings.Contains(stderr.String(), " ("+tc.state+", age ") || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line %s...%s", code, stderr.String(), lead, tail)
			}
			if out := stdout.String(); strings.Count(out, "\n") != 1 || strings.Contains(out, "removed") {
				t.Errorf("stdout %q; want the holder printed and nothing removed", out)
			}
			got, err := os.ReadFile(lock)
			switch {
			case tc.replaced == "" && !errors.Is(err, os.ErrNotExist):
				t.Errorf("the lock: %q, %v; want none", got, err)
			case tc.replaced != "" && (err != nil || string(got) != tc.replaced):
				t.Errorf("the lock is %q, %v; want the new one left byte for byte", got, err)
			}
			if left := estatetest.Files(t, filepath.Join(home, "agents", "demo")); len(left) > 1 {
				t.Errorf("the agent folder holds %q; want the lock at most", left)
			}
		})
	}
}

// errHookCtx is a context whose Err calls hook the first time: the lock's
// wait asks for Err after each failed try, so a test acts there, while pa
// waits for a held lock (after open checked the board, before its hold).
type errHookCtx struct {
	context.Context
	once sync.Once
	hook func()
}

func (c *errHookCtx) Err() error {
	c.once.Do(c.hook)
	return c.Context.Err()
}

// A board that stops parsing while open waits for the lock is caught in the
// hold, where open reads and checks the board before the spawn-log commit:
// exit 1 and one line naming the board, nothing written (no spawn-log),
// the lock released, and the board never overwritten.
func TestOpenWhoseBoardStopsParsingWhileItWaitsWritesNothing(t *testing.T) {
	live := locktest.LivePID(t)
	home := t.TempDir()
	boardName := "agents/demo/board/board.json"
	estatetest.WriteFile(t, home, boardName, `{"version":1,"items":[]}`)
	estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(live, hostname(), time.Now()))
	fired := false
	ctx := &errHookCtx{Context: context.Background(), hook: func() {
		// open waits for the live holder's lock: break the board, then
		// free the lock so that open goes on at once.
		fired = true
		estatetest.WriteFile(t, home, boardName, "nope")
		if err := os.Remove(filepath.Join(home, filepath.FromSlash(demoLog+".lock"))); err != nil {
			t.Error(err)
		}
	}}
	var stdout, stderr strings.Builder
	code := run(ctx, []string{"--home", home, "dispatch", "open", "--agent", "demo", "--title", "t", "--wait", "10s"}, &stdout, &stderr)
	if !fired {
		t.Fatalf("open never waited for the lock: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	const lead = "pa: agents/demo/board/board.json does not parse: want a JSON object with version and items: "
	if code != exitUsage || stdout.String() != "" || !strings.HasPrefix(stderr.String(), lead) || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line leading with %q", code, stdout.String(), stderr.String(), lead)
	}
	if got := readFile(t, home, boardName); got != "nope" {
		t.Errorf("the board is now %q; want it left as it was", got)
	}
	if left := estatetest.Files(t, filepath.Join(home, "agents", "demo")); !slices.Equal(left, []string{"board/", "board/board.json"}) {
		t.Errorf("the agent folder holds %q; want the board only (no spawn-log, no lock, no temp file)", left)
	}
}

// A writer fenced out again and again until its wait ran out, when the lock
// is free by the time it reports: exit 2 (a lock outcome, not bad input)
// and the line that says the lock is free now and to try again. The fence
// cannot be reached from outside the process without a seam, so the error
// of locking.Update is handed to open's line as it comes.
func TestOpenFencedOutWhileTheLockIsFreeNowExitsTwo(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	lost := fmt.Errorf("locking: agents/demo/spawn-log.json: %w, and the 1s timeout ran out before a fresh hold", locking.ErrLockLost)
	for _, tc := range []struct {
		wait time.Duration
		home string
		want string
	}{
		{time.Second, "", "agents/demo/spawn-log.json.lock (no holder): this writer lost its lock and gave up after 1s; nothing was written; the lock is free now, try again"},
		{0, "/tmp/X", "agents/demo/spawn-log.json.lock (no holder): this writer lost its lock and gave up at once (--wait 0); nothing was written; the lock is free now, try again"},
	} {
		pa := "pa"
		if tc.home != "" {
			pa = "pa --home " + tc.home
		}
		a := advice{pa: pa, home: tc.home, agent: "demo"}
		err := openError(e.FS, a, tc.wait, spawnlog.Record{}, lost, locking.Options{})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitProblem || ee.msg != tc.want {
			t.Errorf("--wait %s: %v; want exit 2 and %q", tc.wait, err, tc.want)
		}
	}
	if left := estatetest.Files(t, e.Dir); len(left) != 0 {
		t.Errorf("the estate holds %q; want nothing", left)
	}
}
