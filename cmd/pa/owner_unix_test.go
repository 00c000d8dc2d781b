//go:build unix

package main

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// The uids of the two users of an estate in a sticky folder: its owner,
// who made every file, and another user, who runs pa there. Neither needs
// an entry in the user database; nobody's usually has one.
const (
	estateUID = 65534 // nobody
	otherUID  = 54321
)

// shownUser is uid as the lines show it: `uid 65534 (nobody)`, or the uid
// alone when the user database names no one for it.
func shownUser(uid int) string {
	s := "uid " + strconv.Itoa(uid)
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		s += " (" + u.Username + ")"
	}
	return s
}

// stickyEstate is an estate that estateUID made in a world-writable sticky
// folder, each of its folders world-writable and sticky too, with one
// dispatch of agent demo: another user may add files there but not move,
// replace or remove estateUID's. It is removed when the test ends. Only
// root can make it (CI runs as root).
func stickyEstate(t *testing.T, c binClass) (home string) {
	t.Helper()
	_, home = stickyEstateAt(t, c, "estate")
	return home
}

// stickyEstateAt is stickyEstate at leaf in the sticky folder dir: with
// leaf ".pa", the default estate of a user whose home folder is dir (see
// runDefaultAs).
func stickyEstateAt(t *testing.T, c binClass, leaf string) (dir, home string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run pa as two other users (CI runs as root)")
	}
	// The test binaries' folder, 0700, must let the other users run pa.
	if err := os.Chmod(filepath.Dir(paBin), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "pa-owner-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	home = filepath.Join(dir, leaf)
	if r := runAs(t, c, estateUID, home, "dispatch", "open", "--agent", "demo", "--title", "first"); r.code != 0 {
		t.Fatalf("first open as uid %d: exit %d, %q", estateUID, r.code, r.stderr)
	}
	for _, d := range []string{"", "agents", "agents/demo", "agents/demo/board"} {
		if err := os.Chmod(filepath.Join(home, filepath.FromSlash(d)), os.ModeSticky|0o777); err != nil {
			t.Fatal(err)
		}
	}
	return dir, home
}

// runAs runs pa as uid (its gid the same number) against home.
func runAs(t *testing.T, c binClass, uid int, home string, args ...string) result {
	t.Helper()
	cmd := c.command(home, nil, args...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	return runCmd(t, cmd)
}

// runDefaultAs runs pa as uid on the default estate of the user whose home
// folder is user (uid 0: as this process, root).
func runDefaultAs(t *testing.T, c binClass, uid int, user string, args ...string) result {
	t.Helper()
	cmd := c.command("", []string{"HOME=" + user, "USERPROFILE=" + user}, args...)
	cmd.Dir = "/"
	if uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	return runCmd(t, cmd)
}

// writeLockAs writes a lock of a dead holder of this host as uid's file.
func writeLockAs(t *testing.T, home string, uid int) string {
	t.Helper()
	p := filepath.Join(home, filepath.FromSlash(logName+".lock"))
	content := lockJSON(deadPID(t), hostname(), time.Now().Add(-time.Minute))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(p, uid, uid); err != nil {
		t.Fatal(err)
	}
	return content
}

// deadPID is a pid of this host that no process has now: one of a child
// that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// oneLineWith fails unless r exited 2 with one line on stderr, nothing on
// stdout beyond want's, that holds every sub and never "cannot be read".
func oneLineWith(t *testing.T, what string, r result, stdout string, subs ...string) {
	t.Helper()
	if r.code != exitProblem || strings.Count(r.stderr, "\n") != 1 || r.stdout != stdout && !strings.HasPrefix(r.stdout, stdout) {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line", what, r.code, r.stdout, r.stderr)
	}
	for _, sub := range subs {
		if !strings.Contains(r.stderr, sub) {
			t.Errorf("%s: stderr %q\nwant it to hold %q", what, r.stderr, sub)
		}
	}
	if strings.Contains(r.stderr, "cannot be read") {
		t.Errorf("%s: stderr %q calls a refused rename a read", what, r.stderr)
	}
}

// A dead lock that another user made, in a sticky folder: open's break
// of it is refused, and so are board repair's, unlock's and unlock
// --force's. Each line
// names the lock, its owner, that only that user or root can clear it and
// the rename that was refused, and advises the unlock run as that user or
// root, never the same unlock as the reader; the lock stays byte for byte,
// and that unlock, run as its owner, removes it.
func TestAnotherUsersDeadLock(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := stickyEstate(t, c)
		content := writeLockAs(t, home, estateUID)
		before := estatetest.Files(t, home)
		owner := shownUser(estateUID)
		refused := "renaming agents/demo/spawn-log.json.lock was refused (operation not permitted): it belongs to " + owner +
			", and only that user or root can move or remove it; "
		unlock := "pa --home " + home + " dispatch unlock --agent demo"
		lead := "pa: agents/demo/spawn-log.json.lock held by pid "

		r := runAs(t, c, otherUID, home, "dispatch", "open", "--agent", "demo", "--title", "second", "--wait", "0")
		oneLineWith(t, "open", r, "", lead, refused+"nothing was written; clear it with "+unlock+" as "+owner+" or as root\n")

		r = runAs(t, c, otherUID, home, "board", "repair", "--agent", "demo", "--wait", "0")
		oneLineWith(t, "board repair", r, "", lead, refused+"nothing was written; clear it with "+unlock+" as "+owner+" or as root\n")

		r = runAs(t, c, otherUID, home, "dispatch", "unlock", "--agent", "demo")
		oneLineWith(t, "unlock", r, "agents/demo/spawn-log.json.lock: held by pid ",
			lead, "unlock failed: "+refused+"nothing removed; run "+unlock+" as "+owner+" or as root\n")

		r = runAs(t, c, otherUID, home, "dispatch", "unlock", "--agent", "demo", "--force")
		oneLineWith(t, "unlock --force", r, "agents/demo/spawn-log.json.lock: held by pid ",
			lead, "unlock failed: "+refused+"nothing removed; run pa --home "+home+" dispatch unlock --force --agent demo as "+owner+
				" or as root, "+forceOnlyWhen+"\n")

		if got := readFile(t, home, logName+".lock"); got != content {
			t.Errorf("the lock is %q, want it as it was, %q", got, content)
		}
		if after := estatetest.Files(t, home); !reflect.DeepEqual(after, before) {
			t.Errorf("files after the refusals %q, want %q", after, before)
		}
		// The advice works for the one it names.
		if r := runAs(t, c, estateUID, home, "dispatch", "unlock", "--agent", "demo"); r.code != 0 || !strings.Contains(r.stdout, "removed") {
			t.Errorf("the advised unlock as %s: exit %d, stdout %q, stderr %q", owner, r.code, r.stdout, r.stderr)
		}
	})
}

// An open by another user whose commit rename over the owner's spawn-log
// is refused (a sticky folder): exit 2, one line that names the rename,
// the spawn-log, its owner and that only that user or root can replace it,
// and advises the open run as that user or root; nothing is written and
// nothing is left behind.
func TestOpenOverAnotherUsersSpawnLog(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := stickyEstate(t, c)
		before := estatetest.Snapshot(t, home)
		owner := shownUser(estateUID)
		r := runAs(t, c, otherUID, home, "dispatch", "open", "--agent", "demo", "--title", "second")
		oneLineWith(t, "open", r, "", "pa: agents/demo/spawn-log.json.lock (no holder): renaming this writer's temp file over agents/demo/spawn-log.json was refused (operation not permitted): it belongs to "+
			owner+", and only that user or root can replace it; nothing was written; run this pa --home "+home+" dispatch open as "+owner+" or as root\n")
		if after := estatetest.Snapshot(t, home); !reflect.DeepEqual(after, before) {
			t.Errorf("the estate after the refused open %q, want it as it was, %q", after, before)
		}
	})
}

// A lock of another user's that this one may not read (mode 0600): open
// and unlock each exit 2 with one line that names the lock, its owner,
// that only that user or root can read it and the open that was refused,
// and advises the unlock run as that user or root, never the same unlock
// as the reader, which cannot read it either.
func TestAnotherUsersUnreadableLock(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := stickyEstate(t, c)
		writeLockAs(t, home, estateUID)
		if err := os.Chmod(filepath.Join(home, filepath.FromSlash(logName+".lock")), 0o600); err != nil {
			t.Fatal(err)
		}
		before := estatetest.Snapshot(t, home)
		owner := shownUser(estateUID)
		refused := "pa: agents/demo/spawn-log.json.lock (holder not read): opening agents/demo/spawn-log.json.lock was refused (permission denied): it belongs to " +
			owner + ", and only that user or root can read it; "
		unlock := "pa --home " + home + " dispatch unlock --agent demo as " + owner + " or as root\n"

		r := runAs(t, c, otherUID, home, "dispatch", "open", "--agent", "demo", "--title", "second", "--wait", "0")
		oneLineWith(t, "open", r, "", refused+"nothing was written; clear it with "+unlock)
		r = runAs(t, c, otherUID, home, "dispatch", "unlock", "--agent", "demo")
		oneLineWith(t, "unlock", r, "", refused+"nothing removed; run "+unlock)
		if after := estatetest.Snapshot(t, home); !reflect.DeepEqual(after, before) {
			t.Errorf("the estate after the refusals %q, want it as it was, %q", after, before)
		}
	})
}

// statInfo is a folder's file information of mode, owned by uid and gid.
type statInfo struct {
	mode     os.FileMode
	uid, gid int
}

func (s statInfo) Name() string       { return "d" }
func (s statInfo) Size() int64        { return 0 }
func (s statInfo) Mode() os.FileMode  { return s.mode | os.ModeDir }
func (s statInfo) ModTime() time.Time { return time.Time{} }
func (s statInfo) IsDir() bool        { return true }
func (s statInfo) Sys() any           { return &syscall.Stat_t{Uid: uint32(s.uid), Gid: uint32(s.gid)} }

// dirWritable takes the mode bits that apply to this process's user (the
// owner's, else the group's, else the others'), and a folder is writable
// for it only with both write and search.
func TestDirWritable(t *testing.T) {
	me, mine := os.Geteuid(), os.Getegid()
	groups, _ := os.Getgroups()
	other := 54329 // a group this process is not in
	for slices.Contains(groups, other) || other == mine {
		other++
	}
	for _, tc := range []struct {
		name     string
		fi       statInfo
		writable bool
	}{
		{"the owner's rwx", statInfo{0o700, me, other}, true},
		{"the owner's wx", statInfo{0o300, me, other}, true},
		{"the owner's rx, the others' rwx", statInfo{0o577, me, other}, false},
		{"the owner's w alone", statInfo{0o200, me, other}, false},
		{"the group's rwx", statInfo{0o070, me + 1, mine}, true},
		{"the group's rx, the others' rwx", statInfo{0o757, me + 1, mine}, false},
		{"the group's w alone", statInfo{0o020, me + 1, mine}, false},
		{"the others' rwx", statInfo{0o007, me + 1, other}, true},
		{"the others' rx, the owner's and group's rwx", statInfo{0o775, me + 1, other}, false},
		{"the others' w alone", statInfo{0o002, me + 1, other}, false},
	} {
		if w, known := dirWritable(tc.fi); !known || w != tc.writable {
			t.Errorf("%s (%o): writable %v, known %v; want %v", tc.name, tc.fi.mode, w, known, tc.writable)
		}
	}
	for _, g := range groups {
		if g != mine {
			if w, _ := dirWritable(statInfo{0o070, me + 1, g}); !w {
				t.Errorf("the group's rwx of supplementary group %d: not writable", g)
			}
			break
		}
	}
}
