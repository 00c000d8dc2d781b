package main

import (
	"errors"
	"io/fs"
	"os"
	"os/user"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// A file operation refused because a file of the estate is another user's:
// an estate in a world-writable folder with the sticky bit (/tmp, say),
// where only a file's owner or root may rename or remove it, or a file or
// folder that user made and this one may not read or write. No pa command
// run by this user can clear it, so the line names the file, its owner, that
// only that user or root can clear it and the operation that was refused,
// and advises no command that cannot work for the one who reads it.

// refusal is a file operation refused on another user's file.
type refusal struct {
	what  string // the operation and its file: `renaming agents/demo/spawn-log.json.lock`
	why   string // the system's reason: "operation not permitted"
	file  string // the other user's file, as lines show it
	owner string // `uid 4001 (alice)`, or `uid 4001` when no name is found
	can   string // what only that user or root can do: "move or remove it"
	read  bool   // the operation was a read (opening the file)
}

// String is the refusal as a clause of a line: `renaming X was refused
// (operation not permitted): X belongs to uid 4001 (alice), and only that
// user or root can move or remove it` ("it" for a file the operation
// names last).
func (r refusal) String() string {
	file := r.file
	if strings.HasSuffix(r.what, " "+r.file) {
		file = "it"
	}
	return r.what + " was refused (" + r.why + "): " + file + " belongs to " + r.owner +
		", and only that user or root can " + r.can
}

// as is cmd to be run as the file's owner or as root: `pa dispatch unlock
// --agent demo as uid 4001 (alice) or as root`.
func (r refusal) as(cmd string) string { return asOwner(cmd, r.owner) }

// asOwner is cmd to be run as owner (`uid 4001 (alice)`) or as root, the
// words of every line whose command only that user or root can run.
func asOwner(cmd, owner string) string {
	return cmd + " as " + owner + " or as root"
}

// ofLock reports whether the refused file is agent's lock.
func (r refusal) ofLock(agent string) bool { return r.file == lockDisplay(agent) }

// refusedByOwner finds in err's tree a rename, link, remove, create or
// read of agent's files refused for want of permission (fs.ErrPermission)
// on a file or folder that another user owns, read from fsys as it is now.
// ok is false for any other error, for root (whom no owner refuses), and
// where the FS tells no owner (Windows, an in-memory FS).
func refusedByOwner(fsys vfs.FS, agent string, err error) (r refusal, ok bool) {
	if err == nil || os.Geteuid() == 0 {
		return refusal{}, false
	}
	walkErrors(err, func(e error) {
		if ok {
			return
		}
		switch e := e.(type) {
		case *os.LinkError:
			if errors.Is(e.Err, fs.ErrPermission) {
				r, ok = refusedLink(fsys, agent, e)
			}
		case *fs.PathError:
			if errors.Is(e.Err, fs.ErrPermission) {
				r, ok = refusedPath(fsys, agent, e)
			}
		}
	})
	return r, ok
}

// refusedLink is a rename or link refused: over a file another user owns
// (its owner alone may replace it), of one (its owner alone may move it),
// or in a folder another user owns.
func refusedLink(fsys vfs.FS, agent string, e *os.LinkError) (refusal, bool) {
	verb := "renaming"
	if strings.HasPrefix(e.Op, "link") {
		verb = "linking"
	}
	why := plainErrno(e.Err)
	old, nw := estate.Display(agent, e.Old), estate.Display(agent, e.New)
	if strings.Contains(path.Base(e.Old), ".tmp-") {
		old = "this writer's temp file" // a name of this attempt alone, long and of no use to the reader
	}
	if owner, ok := foreignOwner(fsys, e.New); ok {
		return refusal{what: verb + " " + old + " over " + nw, why: why, file: nw, owner: owner, can: "replace it"}, true
	}
	if owner, ok := foreignOwner(fsys, e.Old); ok && verb == "renaming" {
		return refusal{what: verb + " " + old, why: why, file: old, owner: owner, can: "move or remove it"}, true
	}
	if owner, ok := foreignOwner(fsys, path.Dir(e.New)); ok {
		return refusal{what: verb + " " + old + " to " + nw, why: why, file: estate.Display(agent, path.Dir(e.New)),
			owner: owner, can: "add files to it"}, true
	}
	return refusal{}, false
}

// refusedPath is a remove, create or read refused: of a file another user
// owns, or of a new name in a folder another user owns.
func refusedPath(fsys vfs.FS, agent string, e *fs.PathError) (refusal, bool) {
	why := plainErrno(e.Err)
	name := estate.Display(agent, e.Path)
	removing := strings.HasPrefix(e.Op, "unlink") || strings.HasPrefix(e.Op, "remove")
	if owner, ok := foreignOwner(fsys, e.Path); ok {
		if removing {
			return refusal{what: "removing " + name, why: why, file: name, owner: owner, can: "remove it"}, true
		}
		return refusal{what: "opening " + name, why: why, file: name, owner: owner, can: "read it", read: true}, true
	}
	dir := path.Dir(e.Path)
	if owner, ok := foreignOwner(fsys, dir); ok {
		what, can := "creating "+name, "add files to it"
		if removing {
			what, can = "removing "+name, "remove files from it"
		}
		return refusal{what: what, why: why, file: estate.Display(agent, dir), owner: owner, can: can}, true
	}
	return refusal{}, false
}

// foreignOwner is the owner of name in fsys (not following a final
// symbolic link), as lines show it, when that is another user than this
// process's effective one.
func foreignOwner(fsys vfs.FS, name string) (string, bool) {
	fi, err := fsys.Lstat(name)
	if err != nil {
		return "", false
	}
	uid, ok := ownerUID(fi)
	if !ok || uid == os.Geteuid() {
		return "", false
	}
	return userShown(uid), true
}

// userShown is `uid 4001 (alice)`, or `uid 4001` when the user database
// names no one for it.
func userShown(uid int) string {
	s := "uid " + strconv.Itoa(uid)
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		s += " (" + termsafe.Value(u.Username) + ")"
	}
	return s
}

// plainErrno is the system's reason alone: "operation not permitted".
func plainErrno(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return termsafe.Escape(err.Error())
}

// refusedLine is the exit-2 line of a writer (open, repair) whose file
// operation r was refused, once nothing was written: it leads with the lock
// as read now, and clears a lock that is the other user's with the unlock
// run as that user or root; another of that user's files (a spawn-log or
// board replaced by the commit) only that user or root can write, so the
// command is run again as one of them.
func (a advice) refusedLine(fsys vfs.FS, opts locking.Options, r refusal, command string) error {
	n := a.now(fsys, opts)
	advice := "run this " + r.as(command)
	if r.ofLock(a.agent) && n.clear != "" {
		advice = "clear it with " + r.as(a.unlock(n.state))
		if n.state != locking.StateDead {
			advice += ", " + forceOnlyWhen
		}
	}
	return fail(exitProblem, "%s%s; nothing was written; %s", then(n.lead), r, advice)
}
