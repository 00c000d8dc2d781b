package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// holderLead is what may follow the lock at the start of an exit-2 line:
// its holder's pid, or in that place what is there instead of a holder (or
// that its agent folder leads out of the estate: nothing was read).
var holderLead = regexp.MustCompile(`^( held by pid \d+ | \(no holder\): | \(holder not read\): | is an empty lock \(| is an unreadable lock \(| is not a regular file \(| is a directory, not a lock; | leads out of the estate )`)

// commandIn finds the commands a line names for the operator to run.
var commandIn = regexp.MustCompile(`(dispatch unlock|board check|board repair|dispatch list)( --force)? --agent`)

// exit2 is one exit-2 outcome of open or unlock: its exit code and stderr.
type exit2 struct {
	code   int
	stderr string
}

// lineOf is the outcome of an error as run reports it: its code, and its
// message after "pa: " on one line.
func lineOf(t *testing.T, err error) exit2 {
	t.Helper()
	ee, ok := err.(*exitError)
	if !ok {
		return exit2{code: exitUsage, stderr: fmt.Sprintf("pa: %v\n", err)}
	}
	return exit2{code: ee.code, stderr: "pa: " + oneLine(ee.msg) + "\n"}
}

// checkExit2 checks one exit-2 line of open or unlock: exit 2,
// one line on stderr, leading with agent's lock and its holder's pid (or, in
// that place, what is there instead), naming exactly one command, cmd
// (none when cmd is "": then the line must say why, none).
func checkExit2(t *testing.T, agent string, r exit2, cmd, none string) {
	t.Helper()
	lead := "pa: " + lockDisplay(agent)
	if r.code != exitProblem || strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line", r.code, r.stderr)
	}
	rest, ok := strings.CutPrefix(r.stderr, lead)
	if !ok || !holderLead.MatchString(rest) {
		t.Errorf("line %q; want it to lead with %q and the holder's pid (or what is there instead)", r.stderr, lead)
	}
	found := commandIn.FindAllString(r.stderr, -1)
	switch {
	case cmd == "" && len(found) != 0:
		t.Errorf("line %q names %q; want no command", r.stderr, found)
	case cmd == "" && !strings.Contains(r.stderr, none):
		t.Errorf("line %q; want it to say %q", r.stderr, none)
	case cmd != "" && (len(found) != 1 || strings.Count(r.stderr, cmd) != 1):
		t.Errorf("line %q names %q; want exactly one command, %q", r.stderr, found, cmd)
	}
	// --force is said with when: for a holder, the spec's sentence; for a
	// name that is no writer's lock, why no holder can lose it.
	if strings.Contains(r.stderr, "--force") && !strings.Contains(r.stderr, forceWhen) && !strings.Contains(r.stderr, noWritersLock) {
		t.Errorf("line %q names --force without when", r.stderr)
	}
}

// faultEstate is an estate of class c (links, or nolinks under the faults)
// whose FS fails the rules given.
func faultEstate(t *testing.T, nolinks bool, rules ...faultfs.Rule) (string, vfs.FS) {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	var inner vfs.FS = o
	if nolinks {
		// The spec's exclusive create: these cases are its lines.
		inner = nolinkfs.New(o, syscall.ENOTSUP).ExclusiveCreate()
	}
	f := faultfs.New(inner)
	for _, r := range rules {
		f.Fail(r)
	}
	return dir, f
}

// openThrough runs dispatch.Open on fsys and turns its error into
// open's line, as `pa dispatch open --wait 0` does.
func openThrough(t *testing.T, fsys vfs.FS) exit2 {
	t.Helper()
	opts := locking.Options{Timeout: locking.NoWait}
	rec, err := dispatch.Open(context.Background(), fsys, "demo", "t", opts)
	if err == nil {
		t.Fatalf("open went through (id %d); want it to fail", rec.ID)
	}
	return lineOf(t, openError(fsys, advice{pa: "pa", agent: "demo"}, 0, rec, err, opts))
}

// unlockThrough runs unlock's step for the demo agent on fsys.
func unlockThrough(t *testing.T, fsys vfs.FS, force bool) exit2 {
	t.Helper()
	var stdout, stderr strings.Builder
	c := &unlockCmd{Agent: "demo", Force: force}
	_, err := c.unlockOne(context.Background(), fsys, advice{pa: "pa", agent: "demo"}, locking.Options{}, &output{stdout: &stdout, stderr: &stderr})
	if err == nil {
		t.Fatalf("unlock went through: %q; want it to fail", stdout.String())
	}
	return lineOf(t, err)
}

// Every exit-2 line of `pa dispatch open` and `pa dispatch unlock` leads
// with the lock and its holder's pid (or says in that place that there is
// none, or what is there instead), is one line, and names exactly the one
// command that clears it (R24's lines and a board write that failed name
// `pa board check`, the landed one that is not synced names `pa dispatch
// list`; a free lock or a directory names none and says why). Errors of a
// file operation of the lock (its read, publish, link, release, break) are
// exit 2 too, not "usage or bad input".
func TestEveryExit2LineLeadsWithTheLock(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	bin := binClasses[0]
	lockPath := demoLog + ".lock"
	const free = "the lock is free now"
	const byHand = "remove it by hand"
	failLock := func(op faultfs.Op, err error) faultfs.Rule {
		return faultfs.Rule{Op: op, Match: "spawn-log.json.lock", Err: err}
	}
	type tc struct {
		name      string
		run       func(t *testing.T) (exit2, string) // the outcome and how commands start
		cmd, none string                             // the one command after the start, or "" and what is said instead
	}
	cases := []tc{
		{"open timeout, live holder", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, lockJSON(live, hostname(), time.Now()))
			r := bin.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
			return exit2{r.code, r.stderr}, programFor(home)
		}, " dispatch unlock --force --agent demo", ""},
		{"open timeout, empty lock", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, "")
			r := bin.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
			return exit2{r.code, r.stderr}, programFor(home)
		}, " dispatch unlock --force --agent demo", ""},
		{"open timeout, a dead holder kept by a live claim", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			content := lockJSON(dead, hostname(), time.Now())
			estatetest.WriteFile(t, home, lockPath, content)
			estatetest.WriteFile(t, home, claimName(lockPath, content, hostname(), live), "{}")
			r := bin.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
			return exit2{r.code, r.stderr}, programFor(home)
		}, " dispatch unlock --force --agent demo", ""},
		{"open interrupted, live holder", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, lockJSON(live, hostname(), time.Now()))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var stdout, stderr strings.Builder
			code := run(ctx, []string{"--home", home, "dispatch", "open", "--agent", "demo", "--wait", "1m"}, &stdout, &stderr)
			return exit2{code, stderr.String()}, programFor(home)
		}, " dispatch unlock --force --agent demo", ""},
		{"open interrupted, the lock freed meanwhile", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, lockJSON(live, hostname(), time.Now()))
			inner, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx := &errHookCtx{Context: inner, hook: func() {
				if err := os.Remove(filepath.Join(home, filepath.FromSlash(lockPath))); err != nil {
					t.Error(err)
				}
				cancel()
			}}
			var stdout, stderr strings.Builder
			code := run(ctx, []string{"--home", home, "dispatch", "open", "--agent", "demo", "--wait", "1m"}, &stdout, &stderr)
			return exit2{code, stderr.String()}, programFor(home)
		}, "", free},
		{"open, the board write failed after the commit", func(t *testing.T) (exit2, string) {
			// A board that stops parsing while open waits is refused
			// before anything is written (exit 1, open_exitcodes_test.go); one
			// whose write fails after the commit is this line.
			e := estatetest.New(t, estatetest.Classes[0])
			failed := &dispatch.NotOnBoardError{Agent: "demo", DispatchID: 7, Err: fmt.Errorf("rename agents/demo/board/board.json.tmp-x: %w", syscall.EIO)}
			return lineOf(t, openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{ID: 7}, failed, locking.Options{})), "pa"
		}, " board repair --agent demo", ""},
		{"open R24, no holder now", func(t *testing.T) (exit2, string) {
			e := estatetest.New(t, estatetest.Classes[0])
			lost := &dispatch.NotOnBoardError{Agent: "demo", DispatchID: 7, Err: locking.ErrLockLost}
			return lineOf(t, openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{ID: 7}, lost, locking.Options{})), "pa"
		}, " board repair --agent demo", ""},
		{"open R24, a live holder now", func(t *testing.T) (exit2, string) {
			e := estatetest.New(t, estatetest.Classes[0])
			estatetest.WriteFile(t, e.Dir, lockPath, lockJSON(live, hostname(), time.Now()))
			lost := &dispatch.NotOnBoardError{Agent: "demo", DispatchID: 7, Err: locking.ErrLockLost}
			return lineOf(t, openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{ID: 7}, lost, locking.Options{})), "pa"
		}, " board repair --agent demo", ""},
		{"open landed, folder not synced", func(t *testing.T) (exit2, string) {
			e := estatetest.New(t, estatetest.Classes[0])
			ns := &locking.NotSyncedError{Name: demoLog, Err: syscall.EIO}
			return lineOf(t, openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{ID: 4}, ns, locking.Options{})), "pa"
		}, " dispatch list --agent demo", ""},
		{"open fenced out, a live holder now", func(t *testing.T) (exit2, string) {
			e := estatetest.New(t, estatetest.Classes[0])
			estatetest.WriteFile(t, e.Dir, lockPath, lockJSON(live, hostname(), time.Now()))
			return lineOf(t, openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{}, locking.ErrLockLost, locking.Options{})), "pa"
		}, " dispatch unlock --force --agent demo", ""},
		{"open fenced out, the lock free now", func(t *testing.T) (exit2, string) {
			e := estatetest.New(t, estatetest.Classes[0])
			return lineOf(t, openError(e.FS, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{}, locking.ErrLockLost, locking.Options{})), "pa"
		}, "", free},
		{"open fenced out, the lock cannot be read", func(t *testing.T) (exit2, string) {
			_, fsys := faultEstate(t, false, failLock(faultfs.OpOpenFile, syscall.EACCES))
			return lineOf(t, openError(fsys, advice{pa: "pa", agent: "demo"}, time.Second, spawnlog.Record{}, locking.ErrLockLost, locking.Options{})), "pa"
		}, " dispatch unlock --agent demo", ""},
		{"open, the held lock cannot be read", func(t *testing.T) (exit2, string) {
			dir, fsys := faultEstate(t, false, failLock(faultfs.OpOpenFile, syscall.EACCES))
			estatetest.WriteFile(t, dir, lockPath, lockJSON(live, hostname(), time.Now()))
			return openThrough(t, fsys), "pa"
		}, " dispatch unlock --agent demo", ""},
		{"open, the publish's write fails after its exclusive create (no hard links)", func(t *testing.T) (exit2, string) {
			_, fsys := faultEstate(t, true, failLock(faultfs.OpWrite, syscall.ENOSPC))
			return openThrough(t, fsys), "pa"
		}, " dispatch unlock --force --agent demo", ""},
		{"open, the pending file's write fails (hard links)", func(t *testing.T) (exit2, string) {
			_, fsys := faultEstate(t, false, faultfs.Rule{Op: faultfs.OpWrite, Match: "spawn-log.json.lock.pending-*", Err: syscall.ENOSPC})
			return openThrough(t, fsys), "pa"
		}, "", free},
		{"open, link() fails with ENOENT", func(t *testing.T) (exit2, string) {
			_, fsys := faultEstate(t, false, faultfs.Rule{Op: faultfs.OpLink, Err: syscall.ENOENT})
			return openThrough(t, fsys), "pa"
		}, "", free},
		{"open landed, its release fails", func(t *testing.T) (exit2, string) {
			_, fsys := faultEstate(t, false, faultfs.Rule{Op: faultfs.OpRename, Match: "spawn-log.json.lock", Err: syscall.EIO})
			return openThrough(t, fsys), "pa"
		}, " dispatch unlock --agent demo", ""},
		{"unlock refused, live holder", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, lockJSON(live, hostname(), time.Now()))
			r := bin.run(t, home, "dispatch", "unlock", "--agent", "demo")
			return exit2{r.code, r.stderr}, programFor(home)
		}, " dispatch unlock --force --agent demo", ""},
		{"unlock refused, empty lock, every agent", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, "")
			r := bin.run(t, home, "dispatch", "unlock")
			return exit2{r.code, r.stderr}, programFor(home)
		}, " dispatch unlock --force --agent demo", ""},
		{"unlock busy", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			content := lockJSON(dead, hostname(), time.Now())
			estatetest.WriteFile(t, home, lockPath, content)
			estatetest.WriteFile(t, home, claimName(lockPath, content, hostname(), live), "{}")
			r := bin.run(t, home, "dispatch", "unlock", "--agent", "demo")
			return exit2{r.code, r.stderr}, programFor(home)
		}, " dispatch unlock --agent demo", ""},
		{"unlock interrupted", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			content := lockJSON(dead, hostname(), time.Now())
			estatetest.WriteFile(t, home, lockPath, content)
			estatetest.WriteFile(t, home, claimName(lockPath, content, hostname(), live), "{}")
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var stdout, stderr strings.Builder
			code := run(ctx, []string{"--home", home, "dispatch", "unlock", "--agent", "demo"}, &stdout, &stderr)
			return exit2{code, stderr.String()}, programFor(home)
		}, " dispatch unlock --agent demo", ""},
		{"unlock, lock changed", func(t *testing.T) (exit2, string) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, lockPath, lockJSON(dead, hostname(), time.Now()))
			stdout := &hookWriter{hook: func(s string) {
				if strings.Contains(s, ": held by pid ") {
					estatetest.WriteFile(t, home, lockPath, lockWithToken(dead, hostname(), time.Now(), strings.Repeat("7b", 12)))
				}
			}}
			var stderr strings.Builder
			code := run(context.Background(), []string{"--home", home, "dispatch", "unlock", "--agent", "demo"}, stdout, &stderr)
			return exit2{code, stderr.String()}, programFor(home)
		}, " dispatch unlock --agent demo", ""},
		{"unlock, the lock cannot be read", func(t *testing.T) (exit2, string) {
			dir, fsys := faultEstate(t, false, failLock(faultfs.OpOpenFile, syscall.EACCES))
			estatetest.WriteFile(t, dir, lockPath, lockJSON(dead, hostname(), time.Now()))
			return unlockThrough(t, fsys, false), "pa"
		}, " dispatch unlock --agent demo", ""},
		{"unlock, the break's rename fails", func(t *testing.T) (exit2, string) {
			dir, fsys := faultEstate(t, false, faultfs.Rule{Op: faultfs.OpRename, Match: "spawn-log.json.lock", Err: syscall.EIO})
			estatetest.WriteFile(t, dir, lockPath, lockJSON(dead, hostname(), time.Now()))
			return unlockThrough(t, fsys, false), "pa"
		}, " dispatch unlock --agent demo", ""},
		{"unlock forced, the break's rename fails", func(t *testing.T) (exit2, string) {
			dir, fsys := faultEstate(t, true, faultfs.Rule{Op: faultfs.OpRename, Match: "spawn-log.json.lock", Err: syscall.EIO})
			estatetest.WriteFile(t, dir, lockPath, lockJSON(live, hostname(), time.Now()))
			return unlockThrough(t, fsys, true), "pa"
		}, " dispatch unlock --force --agent demo", ""},
	}
	if runtime.GOOS != "windows" {
		cases = append(cases,
			tc{"open timeout, a directory under the lock name", func(t *testing.T) (exit2, string) {
				home := t.TempDir()
				if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(lockPath), "sub"), 0o755); err != nil {
					t.Fatal(err) // more than a marker: no unlock removes it
				}
				r := bin.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
				return exit2{r.code, r.stderr}, programFor(home)
			}, "", byHand},
			tc{"open timeout, an empty directory under the lock name", func(t *testing.T) (exit2, string) {
				home := t.TempDir()
				if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(lockPath)), 0o755); err != nil {
					t.Fatal(err) // unlock --force removes it
				}
				r := bin.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
				return exit2{r.code, r.stderr}, programFor(home)
			}, " dispatch unlock --force --agent demo", ""},
			tc{"unlock forced, a directory under the lock name", func(t *testing.T) (exit2, string) {
				dir, fsys := faultEstate(t, false)
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(lockPath), "sub"), 0o755); err != nil {
					t.Fatal(err) // more than a marker: no unlock removes it
				}
				return unlockThrough(t, fsys, true), "pa"
			}, "", byHand},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, pa := c.run(t)
			cmd := c.cmd
			if cmd != "" {
				cmd = pa + cmd
			}
			t.Log(strings.TrimSuffix(r.stderr, "\n"))
			checkExit2(t, "demo", r, cmd, c.none)
		})
	}
}
