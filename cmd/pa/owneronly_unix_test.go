//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/locking/locktest"
)

// The lines that advise a command this user cannot run, decided before it
// is run (owneronly.go): in an estate another user made in a sticky folder,
// the unlock of that user's lock and the repair of that user's board are
// advised run as that user or root; the same user and root get the plain
// command, and the command advised works for the one it names.

// writeHolderLockAs writes a lock of pid on this host, acquired at, as
// uid's file, its file time at too.
func writeHolderLockAs(t *testing.T, home string, uid, pid int, at time.Time) {
	t.Helper()
	p := filepath.Join(home, filepath.FromSlash(logName+".lock"))
	if err := os.WriteFile(p, []byte(lockJSON(pid, hostname(), at)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(p, uid, uid); err != nil {
		t.Fatal(err)
	}
	chtimes(t, home, logName+".lock", at)
}

// An open that times out on a live holder's lock another user owns, in a
// sticky folder: the line advises the unlock --force run as that user or
// root, never the bare unlock --force, which is refused to the reader. The
// lock's owner and root get the plain advice, and it works for its owner.
func TestOpenTimeoutOnAnotherUsersLiveLock(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := stickyEstate(t, c)
		// This test's process: alive, on this host, another user's to pa.
		writeHolderLockAs(t, home, estateUID, os.Getpid(), time.Now())
		owner := shownUser(estateUID)
		force := "pa --home " + home + " dispatch unlock --force --agent demo"
		tail := "gave up at once (--wait 0); clear it with "
		open := []string{"dispatch", "open", "--agent", "demo", "--title", "second", "--wait", "0"}

		r := runAs(t, c, otherUID, home, open...)
		oneLineWith(t, "open as another user", r, "", "pa: agents/demo/spawn-log.json.lock held by pid ",
			tail+force+" as "+owner+" or as root, "+forceOnlyWhen+"\n")
		// The premise: the bare command is refused to that reader.
		if r := runAs(t, c, otherUID, home, "dispatch", "unlock", "--force", "--agent", "demo"); r.code != exitProblem ||
			!strings.Contains(r.stderr, "was refused") {
			t.Errorf("unlock --force as uid %d: exit %d, stderr %q; want it refused", otherUID, r.code, r.stderr)
		}

		for _, who := range []struct {
			name string
			run  func() result
		}{
			{"the lock's owner", func() result { return runAs(t, c, estateUID, home, open...) }},
			{"root", func() result { return c.run(t, home, open...) }},
		} {
			r := who.run()
			oneLineWith(t, "open as "+who.name, r, "", tail+force+", "+forceOnlyWhen+"\n")
			if strings.Contains(r.stderr, " or as root") {
				t.Errorf("open as %s: stderr %q names another user", who.name, r.stderr)
			}
		}

		// The advice works for the one it names.
		if r := runAs(t, c, estateUID, home, "dispatch", "unlock", "--force", "--agent", "demo"); r.code != 0 || !strings.Contains(r.stdout, "removed") {
			t.Errorf("the advised unlock as %s: exit %d, stdout %q, stderr %q", owner, r.code, r.stdout, r.stderr)
		}
	})
}

// Board check on a lock held past the stale window that another user owns,
// in a sticky folder, dead or alive, or in that user's folder that only
// that user may write: the line advises the unlock run as
// that user or root, within its bound (360 for a dead holder, 362 else);
// the lock's owner and root get the plain command, and the advised one
// works for its owner.
func TestCheckAnotherUsersStaleLock(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pid     func(t *testing.T) int
		command string // the unlock, run as its owner
		tail    string // what follows the command
		bound   int
		folder  os.FileMode // agents/demo's mode
	}{
		{"dead", deadPID, "pa dispatch unlock --agent demo", "", maxDeadLine, os.ModeSticky | 0o777},
		{"alive", func(*testing.T) int { return os.Getpid() }, "pa dispatch unlock --force --agent demo", ", " + forceOnlyWhen, maxHeldLine, os.ModeSticky | 0o777},
		// A folder only its owner may write, sticky or not.
		{"dead, the folder not writable", deadPID, "pa dispatch unlock --agent demo", "", maxDeadLine, 0o755},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachBinClass(t, func(t *testing.T, c binClass) {
				user, home := stickyEstateAt(t, c, ".pa")
				if err := os.Chmod(filepath.Join(home, "agents", "demo"), tc.folder); err != nil {
					t.Fatal(err)
				}
				writeHolderLockAs(t, home, estateUID, tc.pid(t), time.Now().Add(-2*time.Minute))
				owner := shownUser(estateUID)
				want := "; clear it with " + tc.command + " as " + owner + " or as root" + tc.tail + "\n"

				r := runDefaultAs(t, c, otherUID, user, "board", "check", "--agent", "demo")
				checkHeldLine(t, "check as another user", r, want, tc.bound)
				for _, who := range []struct {
					name string
					uid  int
				}{{"the lock's owner", estateUID}, {"root", 0}} {
					r := runDefaultAs(t, c, who.uid, user, "board", "check", "--agent", "demo")
					checkHeldLine(t, "check as "+who.name, r, "; clear it with "+tc.command+tc.tail+"\n", tc.bound)
				}

				args := strings.Fields(tc.command)[1:]
				if r := runDefaultAs(t, c, estateUID, user, args...); r.code != 0 || !strings.Contains(r.stdout, "removed") {
					t.Errorf("the advised %s as %s: exit %d, stdout %q, stderr %q", tc.command, owner, r.code, r.stdout, r.stderr)
				}
			})
		})
	}
}

// checkHeldLine fails unless r is board check's exit 2 with one line on
// stdout, a lock-held line that ends with want and keeps within bound.
func checkHeldLine(t *testing.T, what string, r result, want string, bound int) {
	t.Helper()
	if r.code != exitProblem || strings.Count(r.stdout, "\n") != 1 || r.stderr != "" ||
		!strings.HasPrefix(r.stdout, "agents/demo/spawn-log.json.lock held by pid ") || !strings.HasSuffix(r.stdout, want) {
		t.Errorf("%s: exit %d, stdout %q, stderr %q\nwant exit 2 and one line ending %q", what, r.code, r.stdout, r.stderr, want)
	}
	if n := utf8.RuneCountInString(strings.TrimSuffix(r.stdout, "\n")); n > bound {
		t.Errorf("%s: the line is %d characters, over %d: %q", what, n, bound, r.stdout)
	}
}

// Board check on a dispatch not on the board of another user, in a sticky
// folder: the line advises the repair run as that user or root, which
// alone can replace the board; the board's owner and root get the plain
// command, and the advised repair, run as the owner, puts it there.
func TestCheckNotOnAnotherUsersBoard(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		user, home := stickyEstateAt(t, c, ".pa")
		const boardName = "agents/demo/board/board.json"
		first := readFile(t, home, boardName)
		if r := runDefaultAs(t, c, estateUID, user, "dispatch", "open", "--agent", "demo", "--title", "second"); r.code != 0 {
			t.Fatalf("second open as uid %d: exit %d, %q", estateUID, r.code, r.stderr)
		}
		// Dispatch 2 off the board again, the board still the owner's.
		if err := os.WriteFile(filepath.Join(home, filepath.FromSlash(boardName)), []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
		owner := shownUser(estateUID)
		line := "dispatch 2 is in agents/demo/spawn-log.json but not on the board " + boardName + "; put it there with pa board repair --agent demo"
		check := []string{"board", "check", "--agent", "demo"}

		r := runDefaultAs(t, c, otherUID, user, check...)
		if want := line + " as " + owner + " or as root\n"; r.code != exitProblem || r.stdout != want {
			t.Errorf("check as another user: exit %d, stdout %q, stderr %q\nwant exit 2 and %q", r.code, r.stdout, r.stderr, want)
		}
		// The premise: the bare repair is refused to that reader.
		if r := runDefaultAs(t, c, otherUID, user, "board", "repair", "--agent", "demo"); r.code != exitProblem || !strings.Contains(r.stderr, "was refused") {
			t.Errorf("repair as uid %d: exit %d, stderr %q; want it refused", otherUID, r.code, r.stderr)
		}
		for _, who := range []struct {
			name string
			uid  int
		}{{"the board's owner", estateUID}, {"root", 0}} {
			if r := runDefaultAs(t, c, who.uid, user, check...); r.code != exitProblem || r.stdout != line+"\n" {
				t.Errorf("check as %s: exit %d, stdout %q, stderr %q\nwant exit 2 and %q", who.name, r.code, r.stdout, r.stderr, line+"\n")
			}
		}

		if r := runDefaultAs(t, c, estateUID, user, "board", "repair", "--agent", "demo"); r.code != 0 {
			t.Errorf("the advised repair as %s: exit %d, stdout %q, stderr %q", owner, r.code, r.stdout, r.stderr)
		}
		if r := runDefaultAs(t, c, otherUID, user, check...); r.code != 0 {
			t.Errorf("check after the repair: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})
}

// An open by another user whose spawn-log commit lands (the spawn-log is
// that user's) but whose board write is refused (the board is the estate
// owner's, in a sticky folder): the line names the refused rename and the
// board's owner, and advises the repair run as that user or root, which
// then puts the dispatch on the board.
func TestOpenOntoAnotherUsersBoard(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := stickyEstate(t, c)
		if err := os.Lchown(filepath.Join(home, filepath.FromSlash(logName)), otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		owner := shownUser(estateUID)
		repair := "pa --home " + home + " board repair --agent demo"

		r := runAs(t, c, otherUID, home, "dispatch", "open", "--agent", "demo", "--title", "second")
		oneLineWith(t, "open as another user", r, "", "pa: agents/demo/spawn-log.json.lock (no holder): dispatch 2 is in agents/demo/spawn-log.json but not on the board: "+
			"renaming this writer's temp file over agents/demo/board/board.json was refused (operation not permitted): it belongs to "+owner+
			", and only that user or root can replace it; put it there with "+repair+" as "+owner+" or as root\n")
		// The premise: the bare repair is refused to that reader.
		if r := runAs(t, c, otherUID, home, "board", "repair", "--agent", "demo"); r.code != exitProblem || !strings.Contains(r.stderr, "was refused") {
			t.Errorf("repair as uid %d: exit %d, stderr %q; want it refused", otherUID, r.code, r.stderr)
		}
		if r := runAs(t, c, estateUID, home, "board", "repair", "--agent", "demo"); r.code != 0 || !strings.Contains(r.stdout, `added dispatch 2 ("second")`) {
			t.Errorf("the advised repair as %s: exit %d, stdout %q, stderr %q", owner, r.code, r.stdout, r.stderr)
		}
		if r := runAs(t, c, otherUID, home, "board", "check", "--agent", "demo"); r.code != 0 {
			t.Errorf("check after the repair: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})
}

// An unlock of another user's dead lock in a sticky folder that another
// breaker's live claim keeps busy, or that Ctrl-C stops while it waits
// for that claim: each line advises the same unlock again
// run as the lock's owner or root, which alone can move it (the plain one
// would be refused, renaming it); the lock's owner and root get the plain
// line.
func TestUnlockAgainOfAnotherUsersLock(t *testing.T) {
	c := binClasses[0]
	for _, tc := range []struct {
		name, says string
		act        func(t *testing.T, p *os.Process) // once the holder is printed
	}{
		{"busy", "is breaking it; run ", nil},
		{"interrupted", "interrupted while waiting for another breaker: nothing removed; run ", func(t *testing.T, p *os.Process) {
			if err := p.Signal(os.Interrupt); err != nil {
				t.Error(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, who := range []struct {
				name string
				uid  int
				as   string // what follows "again"
			}{
				{"another user", otherUID, " as " + shownUser(estateUID) + " or as root"},
				{"the lock's owner", estateUID, ""},
				{"root", 0, ""},
			} {
				home := stickyEstate(t, c)
				// A dead holder's lock, the owner's, and a live breaker's claim on it.
				lock := logName + ".lock"
				content := lockJSON(deadPID(t), hostname(), time.Now().Add(-time.Minute))
				if err := os.WriteFile(filepath.Join(home, filepath.FromSlash(lock)), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Lchown(filepath.Join(home, filepath.FromSlash(lock)), estateUID, estateUID); err != nil {
					t.Fatal(err)
				}
				claim := filepath.Join(home, filepath.FromSlash(claimName(lock, content, hostname(), locktest.LivePID(t))))
				if err := os.WriteFile(claim, []byte("{}"), 0o644); err != nil {
					t.Fatal(err)
				}
				r := unlockActing(t, c, who.uid, home, tc.act)
				want := tc.says + "pa --home " + home + " dispatch unlock --agent demo again" + who.as + "\n"
				if r.code != exitProblem || strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, want) {
					t.Errorf("unlock as %s: exit %d, stderr %q\nwant exit 2 and one line ending %q", who.name, r.code, r.stderr, want)
				}
			}
		})
	}
}

// unlockActing runs `pa dispatch unlock --agent demo` on home as uid (0:
// as this process) and calls act, when not nil, once pa has printed the
// lock's holder, while it waits for another breaker's claim (1 s).
func unlockActing(t *testing.T, c binClass, uid int, home string, act func(*testing.T, *os.Process)) result {
	t.Helper()
	cmd := c.command(home, nil, "dispatch", "unlock", "--agent", "demo")
	cmd.Dir = "/"
	if uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.Contains(line, ": held by pid ") {
		t.Errorf("unlock's first line %q; want the holder", line)
	}
	if act != nil {
		act(t, cmd.Process)
	}
	_, _ = io.Copy(io.Discard, out)
	err = cmd.Wait()
	r := result{stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// A directory (or a named pipe) under the lock name that another user
// made, in a sticky folder: the reader can neither remove it by hand nor
// with unlock --force, so board check, open and unlock say that only its
// owner or root can remove it, and advise unlock --force run as one of
// them where that removes it (a directory holding at most a lock's record:
// nothing, or one regular file); one that holds more no unlock removes.
// Its owner and root get the plain lines, and the advised unlock --force
// removes it.
func TestAnotherUsersDirectoryAtTheLockName(t *testing.T) {
	owner := shownUser(estateUID)
	const what = "agents/demo/spawn-log.json.lock cannot be read: it is a directory, not a lock; "
	const pipe = "agents/demo/spawn-log.json.lock cannot be read: it is a named pipe, not a lock; "
	const force = "pa dispatch unlock --force --agent demo"
	const safe = " (it is no writer's lock, so no holder can lose it)"
	const more = "no pa dispatch unlock removes a directory holding more than a lock's record: look at it"
	for _, tc := range []struct {
		name    string
		inside  string // a file ("x.json") or folder ("sub/") in it, "" for none; "|": a named pipe, no directory
		command string // board check's --json command
		check   string // board check's line as another user
		plain   string // as the owner and root
		open    string // how open's line ends, as another user
	}{
		{"empty", "", force, what + "look at it; only " + owner + " or root can remove it: by hand, or with " + force + " as " + owner + " or as root" + safe,
			what + "look at it, then remove it by hand or with " + force + safe,
			"look at it; only " + owner + " or root can remove it: by hand, or with " + force + " as " + owner + " or as root" + safe + "\n"},
		{"a record", "x.json", force, what + "look at it; only " + owner + " or root can remove it: by hand, or with " + force + " as " + owner + " or as root" + safe,
			what + "look at it, then remove it by hand or with " + force + safe,
			"look at it; only " + owner + " or root can remove it: by hand, or with " + force + " as " + owner + " or as root" + safe + "\n"},
		{"a named pipe", "|", force, pipe + "look at it; only " + owner + " or root can remove it: by hand, or with " + force + " as " + owner + " or as root" + safe,
			pipe + "look at it, then remove it by hand or with " + force + safe,
			"look at it; only " + owner + " or root can remove it: by hand, or with " + force + " as " + owner + " or as root" + safe + "\n"},
		{"more than a record", "sub/", "", what + more + "; only " + owner + " or root can remove it, by hand",
			what + more + " and remove it by hand",
			more + "; only " + owner + " or root can remove it, by hand\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := binClasses[0]
			user, home := stickyEstateAt(t, c, ".pa")
			lock := filepath.Join(home, filepath.FromSlash(logName+".lock"))
			mk := func(p string) error { return os.Mkdir(p, 0o755) }
			if tc.inside == "|" {
				mk = func(p string) error { return syscall.Mkfifo(p, 0o644) }
			}
			if err := mk(lock); err != nil {
				t.Fatal(err)
			}
			made := []string{lock}
			switch in := filepath.Join(lock, strings.TrimSuffix(tc.inside, "/")); {
			case tc.inside == "|": // the pipe is the name itself
			case strings.HasSuffix(tc.inside, "/"):
				if err := os.Mkdir(in, 0o755); err != nil {
					t.Fatal(err)
				}
				made = append(made, in)
			case tc.inside != "":
				if err := os.WriteFile(in, []byte("{}"), 0o644); err != nil {
					t.Fatal(err)
				}
				made = append(made, in)
			}
			for _, p := range made {
				if err := os.Lchown(p, estateUID, estateUID); err != nil {
					t.Fatal(err)
				}
			}

			check := []string{"board", "check", "--agent", "demo"}
			r := runDefaultAs(t, c, otherUID, user, check...)
			if r.code != exitProblem || r.stdout != tc.check+"\n" {
				t.Errorf("board check as another user: exit %d, stdout %q, stderr %q\nwant exit 2 and %q", r.code, r.stdout, r.stderr, tc.check+"\n")
			}
			r = runDefaultAs(t, c, otherUID, user, "board", "check", "--agent", "demo", "--json")
			if got := jsonCommand(t, r); got != tc.command {
				t.Errorf("board check --json as another user: command %q, want %q", got, tc.command)
			}
			r = runDefaultAs(t, c, otherUID, user, "dispatch", "open", "--agent", "demo", "--title", "second", "--wait", "0")
			if r.code != exitProblem || !strings.HasSuffix(r.stderr, tc.open) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("open as another user: exit %d, stderr %q\nwant exit 2 and one line ending %q", r.code, r.stderr, tc.open)
			}
			// The premise: neither the reader's unlock --force nor its rm
			// removes it.
			r = runDefaultAs(t, c, otherUID, user, "dispatch", "unlock", "--force", "--agent", "demo")
			if r.code != exitProblem || tc.command == "" && !strings.HasSuffix(r.stderr, tc.open) {
				t.Errorf("unlock --force as another user: exit %d, stderr %q; want exit 2, ending %q", r.code, r.stderr, tc.open)
			}
			rm := exec.Command("rm", "-rf", lock)
			rm.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: otherUID, Gid: otherUID}}
			if err := rm.Run(); err == nil {
				t.Errorf("rm -rf as another user removed it")
			}
			if _, err := os.Lstat(lock); err != nil {
				t.Fatalf("after the refusals: %v", err)
			}

			for _, who := range []struct {
				name string
				uid  int
			}{{"its owner", estateUID}, {"root", 0}} {
				r := runDefaultAs(t, c, who.uid, user, check...)
				r.stdout = withoutIncidentNotes(r.stdout) // the timeouts above
				if r.code != exitProblem || r.stdout != tc.plain+"\n" {
					t.Errorf("board check as %s: exit %d, stdout %q, stderr %q\nwant exit 2 and %q", who.name, r.code, r.stdout, r.stderr, tc.plain+"\n")
				}
			}
			// The advice works for the one it names: the advised unlock
			// --force removes it, or, holding more, is refused.
			r = runDefaultAs(t, c, estateUID, user, "dispatch", "unlock", "--force", "--agent", "demo")
			_, err := os.Lstat(lock)
			if removed := r.code == 0 && strings.HasSuffix(r.stdout, ": removed\n") && err != nil; removed != (tc.command != "") {
				t.Errorf("unlock --force as %s: exit %d, stdout %q, stderr %q, the directory %v; want it removed %v", owner, r.code, r.stdout, r.stderr, err, tc.command != "")
			}
		})
	}
}

// jsonCommand is the "command" of the one problem board check --json
// gave in r.
func jsonCommand(t *testing.T, r result) string {
	t.Helper()
	var out struct{ Problems []struct{ Command string } }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Problems) != 1 {
		t.Fatalf("board check --json: exit %d, stdout %q (%v); want one problem", r.code, r.stdout, err)
	}
	return out.Problems[0].Command
}

// Board check as another user (uid 54321), in an estate uid 65534 made,
// with a dead holder's lock of uid 65534 or none and, in some rows, a
// dispatch off the board: the line advises the plain unlock or repair
// where the reader can run it (a folder it may write that is not sticky,
// or is its own; a lock or board of its own; a folder its group, or one of
// its supplementary groups, may write), the command run as uid 65534 or
// root where it cannot; and the plain command, run as the reader, works.
func TestCheckAsAnotherUserWhoCanRunIt(t *testing.T) {
	owner := shownUser(estateUID)
	const unlock, repair = "pa dispatch unlock --agent demo", "pa board repair --agent demo"
	for _, tc := range []struct {
		name   string
		folder os.FileMode // agents/demo's mode
		fuid   int         // its owner
		fgid   int         // its group
		lock   int         // the lock's owner, -1 for no lock
		board  int         // the board's owner, -1: the dispatch stays on the board
		groups []uint32    // the reader's supplementary groups
		as     bool        // the command is advised as uid 65534 or root
	}{
		{"sticky, the owner's lock", os.ModeSticky | 0o777, estateUID, estateUID, estateUID, -1, nil, true},
		{"not sticky, world-writable", 0o777, estateUID, estateUID, estateUID, -1, nil, false},
		{"sticky, the reader's folder", os.ModeSticky | 0o777, otherUID, estateUID, estateUID, -1, nil, false},
		{"sticky, the reader's lock", os.ModeSticky | 0o777, estateUID, estateUID, otherUID, -1, nil, false},
		{"group-writable, the reader's group", 0o775, estateUID, otherUID, estateUID, -1, nil, false},
		{"group-writable, a supplementary group", 0o775, estateUID, 54329, estateUID, -1, []uint32{54329}, false},
		{"group-writable, another group", 0o775, estateUID, 54329, estateUID, -1, nil, true},
		{"not writable, no lock, the reader's board", 0o755, estateUID, estateUID, -1, otherUID, nil, true},
		{"sticky, the owner's lock, the reader's board", os.ModeSticky | 0o777, estateUID, estateUID, estateUID, otherUID, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := binClasses[0]
			user, home := stickyEstateAt(t, c, ".pa")
			demo := filepath.Join(home, "agents", "demo")
			var want []string
			if tc.board >= 0 {
				// Dispatch 2 off the board, the board tc.board's.
				const boardName = "agents/demo/board/board.json"
				first := readFile(t, home, boardName)
				if r := runDefaultAs(t, c, estateUID, user, "dispatch", "open", "--agent", "demo", "--title", "second"); r.code != 0 {
					t.Fatalf("second open: exit %d, %q", r.code, r.stderr)
				}
				p := filepath.Join(home, filepath.FromSlash(boardName))
				if err := os.WriteFile(p, []byte(first), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Lchown(p, tc.board, tc.board); err != nil {
					t.Fatal(err)
				}
			}
			if tc.lock >= 0 {
				writeHolderLockAs(t, home, tc.lock, deadPID(t), time.Now().Add(-2*time.Minute))
				want = append(want, "; clear it with "+unlock)
			}
			if tc.board >= 0 {
				want = append(want, "; put it there with "+repair)
			}
			if err := os.Chown(demo, tc.fuid, tc.fgid); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(demo, tc.folder); err != nil {
				t.Fatal(err)
			}

			run := func(args ...string) result {
				cmd := c.command("", []string{"HOME=" + user, "USERPROFILE=" + user}, args...)
				cmd.Dir = "/"
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: otherUID, Gid: otherUID, Groups: tc.groups}}
				return runCmd(t, cmd)
			}
			r := run("board", "check", "--agent", "demo")
			lines := strings.SplitAfter(r.stdout, "\n")
			if r.code != exitProblem || len(lines) != len(want)+1 || r.stderr != "" {
				t.Fatalf("board check: exit %d, stdout %q, stderr %q; want exit 2 and %d lines", r.code, r.stdout, r.stderr, len(want))
			}
			for i, w := range want {
				if tc.as {
					w += " as " + owner + " or as root"
				}
				if !strings.HasSuffix(lines[i], w+"\n") {
					t.Errorf("board check: line %q\nwant it to end %q", lines[i], w)
				}
			}
			if tc.as {
				// The premise: the plain commands are refused to the reader.
				if r := run(strings.Fields(unlock)[1:]...); tc.lock >= 0 && r.code != exitProblem {
					t.Errorf("%s as the reader: exit %d, stdout %q, stderr %q; want it refused", unlock, r.code, r.stdout, r.stderr)
				}
				if r := run(strings.Fields(repair)[1:]...); tc.board >= 0 && r.code != exitProblem {
					t.Errorf("%s as the reader: exit %d, stdout %q, stderr %q; want it refused", repair, r.code, r.stdout, r.stderr)
				}
				return
			}
			// The plain command works for the reader.
			if r := run(strings.Fields(unlock)[1:]...); r.code != 0 || !strings.Contains(r.stdout, "removed") {
				t.Errorf("%s as the reader: exit %d, stdout %q, stderr %q", unlock, r.code, r.stdout, r.stderr)
			}
		})
	}
}

// An open by another user that loses its lock after its spawn-log commit
// and before the board write (the pafault build's PA_FAULT_LOSE_LOCK_AT;
// the spawn-log is that user's, the board the estate owner's, in a sticky
// folder): the line (row R24) advises the repair run as the board's owner
// or root, which alone can replace the board; the owner and root get the
// plain repair, and the advised one puts the dispatch on the board.
func TestOpenLockLostOntoAnotherUsersBoard(t *testing.T) {
	c := binClass{"links", func() string { return paFaultBin }, ""}
	owner := shownUser(estateUID)
	for _, who := range []struct {
		name string
		uid  int
		as   string
	}{
		{"another user", otherUID, " as " + owner + " or as root"},
		{"the board's owner", estateUID, ""},
		{"root", 0, ""},
	} {
		t.Run(who.name, func(t *testing.T) {
			home := stickyEstate(t, c)
			if err := os.Lchown(filepath.Join(home, filepath.FromSlash(logName)), otherUID, otherUID); err != nil {
				t.Fatal(err)
			}
			cmd := c.command(home, []string{"PA_FAULT_LOSE_LOCK_AT=commit:renamed"}, "dispatch", "open", "--agent", "demo", "--title", "second")
			cmd.Dir = "/"
			if who.uid != 0 {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.uid)}}
			}
			r := runCmd(t, cmd)
			want := "pa: agents/demo/spawn-log.json.lock (no holder): this writer's lock was lost before the board write: " +
				"dispatch 2 is in the spawn-log but not on the board; put it there with pa --home " + home + " board repair --agent demo" + who.as + "\n"
			if r.code != exitProblem || r.stdout != "" || r.stderr != want {
				t.Fatalf("open losing its lock as %s: exit %d, stdout %q, stderr %q\nwant exit 2 and %q", who.name, r.code, r.stdout, r.stderr, want)
			}
			if who.uid != otherUID {
				return
			}
			// The premise: the plain repair is refused to that reader; the
			// advised one works.
			if r := runAs(t, c, otherUID, home, "board", "repair", "--agent", "demo"); r.code != exitProblem || !strings.Contains(r.stderr, "was refused") {
				t.Errorf("repair as uid %d: exit %d, stderr %q; want it refused", otherUID, r.code, r.stderr)
			}
			if r := runAs(t, c, estateUID, home, "board", "repair", "--agent", "demo"); r.code != 0 || !strings.Contains(r.stdout, `added dispatch 2 ("second")`) {
				t.Errorf("the advised repair as %s: exit %d, stdout %q, stderr %q", owner, r.code, r.stdout, r.stderr)
			}
		})
	}
}
