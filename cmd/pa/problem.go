package main

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
)

// The words of `pa board check`'s problems: the line an operator reads and
// the command to paste, made of the data dispatch.Check returns.

// problemCommand is the one command that clears p in the estate home (""
// for the default, see programFor), with the whole agent name, or "" when
// none does: a lock held past the stale window, and a lock name holding a
// symbolic link, a named pipe, a socket or a device, which `pa dispatch
// unlock --force` removes (a directory only as problemCommandAs tells); a
// dispatch not on the board, which `pa board repair` puts there; no other
// problem. It works pasted into another shell (the --json "command"
// field).
func problemCommand(home string, p dispatch.Problem) string {
	return problemCommandAs(home, p, clearing{})
}

// problemCommandAs is problemCommand with what c read from the estate: a
// directory under the lock name has unlock --force for its command when
// that removes it (c.forceRemovesDir: it holds at most a lock's record),
// none else.
func problemCommandAs(home string, p dispatch.Problem, c clearing) string {
	switch {
	case p.Kind == dispatch.KindLockHeld,
		p.Kind == dispatch.KindUnreadable && p.Lock.Mode != 0 && (p.Lock.Mode&fs.ModeDir == 0 || c.forceRemovesDir):
		return unlockCommand(home, p.Agent, p.Lock)
	case p.Kind == dispatch.KindNotOnBoard:
		return repairCommand(home, p.Agent)
	}
	return ""
}

// unlockCommand is the one command that clears a lock of agent held by h
// in the estate home ("" for the default, see programFor), with the whole
// agent name, shell-quoted when it needs it: `pa dispatch unlock --agent
// NAME` for a provably dead holder, `pa dispatch unlock --force --agent
// NAME` for any other (spec: Unlock); `pa --home DIR dispatch unlock ...`
// in an estate that is not the default.
func unlockCommand(home, agent string, h locking.Holder) string {
	flag := agentFlag(agent)
	if h.State == locking.StateDead {
		return programFor(home) + " dispatch unlock " + flag
	}
	return programFor(home) + " dispatch unlock --force " + flag
}

// problemLine is the problem p, in the estate home ("" for the default),
// as one line for an operator or a hook, every value read from disk
// escaped and capped for display. A lock held past the stale window is
// lockHeldLine's: it leads with the lock and its holder, then names the
// whole command that clears it, and is at most 362 characters (360 for a
// dead holder) whatever the agent and host (spec: pa board check), so that
// the envelope's 360-character cut can drop only the end of its --force
// sentence; where the command does not fit, the line says where it is.
//
// Every command a line names is the whole command for the estate the
// check ran on, --home included when it is not the default: pasted, it acts
// on that estate and no other. The lock-held line fits it in its bound as
// lockHeldLine says (the evidence cut first); a --home too long for the
// bound leaves it saying where the whole command is (the --json
// "command"), never a command of another estate.
func problemLine(home string, p dispatch.Problem) string { return problemLineAs(home, p, clearing{}) }

// problemLineAs is problemLine with what c read from the estate
// (clearingOf): c.owner, when not "", the user who alone, but root, can
// run the command that clears p (the line then says it run as that user
// or root), and for a directory under the lock name whether unlock
// --force removes it.
func problemLineAs(home string, p dispatch.Problem, c clearing) string {
	owner := c.owner
	switch p.Kind {
	case dispatch.KindLockHeld:
		return lockHeldLine(home, p, owner)
	case dispatch.KindNotOnBoard:
		cmd := problemCommand(home, p)
		if owner != "" {
			cmd = asOwner(cmd, owner)
		}
		return fmt.Sprintf("dispatch %d is in %s but not on the board %s; put it there with %s",
			p.DispatchID, estate.Display(p.Agent, estate.SpawnLogPath(p.Agent)), estate.Display(p.Agent, p.Path), cmd)
	case dispatch.KindCorrupt:
		return fmt.Sprintf("%s does not parse: %s", estate.Display(p.Agent, p.Path), termsafe.Escape(p.Err))
	case dispatch.KindListedTwice:
		return fmt.Sprintf("%s is listed %s in its folder, a copy under each entry (a power cut inside an exFAT rename over it, say); the next %s dispatch open %s that writes it removes the extra entries, keeping the copy pa reads (each holds every dispatch that was reported)",
			estate.Display(p.Agent, p.Path), timesWord(p.Times), programFor(home), agentFlag(p.Agent))
	case dispatch.KindBehindBoard:
		return fmt.Sprintf("%s lists dispatch %d, but the spawn-log's next id is %d: the spawn-log is behind its board (its records were lost, or it is an older copy); %s dispatch open refuses until the spawn-log is put back from a copy, or the board is moved aside (keep it) to start a new board from the spawn-log",
			estate.Display(p.Agent, p.Path), p.DispatchID, p.NextID, programFor(home))
	case dispatch.KindUnreadable:
		if p.Lock.Mode != 0 {
			return notALockLine(p, problemCommandAs(home, p, c), c)
		}
		return fmt.Sprintf("%s cannot be read: %s; look at it and fix or move it by hand", estate.Display(p.Agent, p.Path), termsafe.Escape(p.Err))
	}
	return string(p.Kind)
}

// timesWord is how many times a folder lists a name: "twice", "3 times".
func timesWord(n int) string {
	if n == 2 {
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// formatWindow prints a stale window for a line: in whole seconds from a
// second up (60s, as --help gives the default and the spec its 60 s, 90s,
// 3600s; never 1m0s), exactly below (500ms, 1.5ms, 1ns), so a tiny window
// never reads "0s".
func formatWindow(d time.Duration) string {
	if d < time.Second {
		return d.String()
	}
	return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10) + "s"
}

// notALockLine is the line of a not-a-lock problem (an unreadable one with p.Lock.Mode not 0), in the words of the
// other unreadable lines and of `pa dispatch unlock`'s refusal of a
// directory: what is there, then what to do, naming the whole command
// (command, problemCommandAs's) and why --force is safe there; said for
// c.owner or root alone when only they can remove it.
func notALockLine(p dispatch.Problem, command string, c clearing) string {
	what := fmt.Sprintf("%s cannot be read: %s", estate.Display(p.Agent, p.Path), p.Err)
	return what + "; " + notALockClearing(command, p.Lock.Mode, c)
}

// noWritersLock is when --force is right for a name under the lock that
// is not a lock: always, as no holder can lose it.
const noWritersLock = "it is no writer's lock, so no holder can lose it"

// notALockClearing is what clears a name under the lock that is not a
// regular file, of mode mode (a directory, a named pipe, a symbolic link):
// no writer's lock, so no holder can lose it and --force is safe, without
// the spec's --force sentence; for a symbolic link, the link is what goes;
// a directory as notALockAdvice says. The board check's line and the
// lines of open and unlock (advice.clearWith) say it alike.
func notALockClearing(command string, mode fs.FileMode, c clearing) string {
	why := noWritersLock
	switch {
	case mode&fs.ModeDir != 0:
		return notALockAdvice(command, c)
	case mode&fs.ModeSymlink != 0:
		why = "the link, never its target; " + why
	}
	return removeAdvice(command, c.owner, why)
}

// notALockAdvice is the advice for a directory under the lock name:
// unlock --force (command) removes one that holds at most a lock's record
// (empty, or one regular file), no writer's lock; one that holds more no
// unlock removes, so the operator does, by hand; c.owner or root alone
// when only they can remove it.
func notALockAdvice(command string, c clearing) string {
	if c.forceRemovesDir {
		return removeAdvice(command, c.owner, noWritersLock)
	}
	const none = "no pa dispatch unlock removes a directory holding more than a lock's record: look at it"
	if c.owner != "" {
		return none + "; only " + c.owner + " or root can remove it, by hand"
	}
	return none + " and remove it by hand"
}

// removeAdvice is the advice to look at what is under the lock name and
// remove it by hand or with command (why it is safe); only owner, when not
// "", or root can, and the command is said run as one of them.
func removeAdvice(command, owner, why string) string {
	if owner == "" {
		return "look at it, then remove it by hand or with " + command + " (" + why + ")"
	}
	return "look at it; only " + owner + " or root can remove it: by hand, or with " + asOwner(command, owner) + " (" + why + ")"
}

// shellWord returns s as one word for a POSIX shell: unchanged when it is
// made only of letters, digits and -_.,:@%+=/ (and not empty), otherwise in
// single quotes with each ' written as '\”. Messages use it so that the
// command they name can be pasted as it is.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:@%+=/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// agentFlag is the --agent flag for agent in a command a message names: the
// whole name, shell-quoted when it needs it, and written --agent=NAME when
// the name starts with '-' (so it is not read as a flag of its own).
func agentFlag(agent string) string {
	if strings.HasPrefix(agent, "-") {
		return "--agent=" + shellWord(agent)
	}
	return "--agent " + shellWord(agent)
}

// programFor is how every command a message names starts: `pa` in the default
// estate (home ""), `pa --home DIR` in any other, DIR whole and
// shell-quoted (written --home=DIR when it starts with '-'), so that the
// command acts on the same estate when it is pasted into another shell,
// whatever that shell's PA_HOME. home should be absolute for the same
// reason.
func programFor(home string) string {
	switch {
	case home == "":
		return "pa"
	case strings.HasPrefix(home, "-"):
		return "pa --home=" + shellWord(home)
	}
	return "pa --home " + shellWord(home)
}
