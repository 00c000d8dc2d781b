package main

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/lockview"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
)

// The words of `pa board check`'s problems: the line an operator reads and
// the command to paste, made of the data dispatch.Check returns.

// problemCommand is the one command that clears p in the estate home (""
// for the default, see programFor), with the whole agent name, or "" when
// none does: a lock held past the stale window, and a lock name holding a
// symbolic link, a named pipe, a socket or a device, which `pa dispatch
// unlock --force` removes (never a directory, which no unlock removes); a
// dispatch not on the board, which `pa board repair` puts there; no other
// problem. It works pasted into another shell (the --json "command"
// field).
func problemCommand(home string, p dispatch.Problem) string {
	switch {
	case p.Kind == dispatch.KindLockHeld,
		p.Kind == dispatch.KindUnreadable && p.Lock.Mode != 0 && p.Lock.Mode&fs.ModeDir == 0:
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
// as one line for an operator or a hook, every value
// read from disk escaped and capped for display. A lock-held line leads with
// `pa dispatch unlock` and the holder's pid, then its host, state and what
// decided it (the evidence), age and acquiredAt, and for a holder not
// provably dead when to use --force; it is at most 362 characters, and
// below 360 for a dead holder, whatever the agent and host (spec: pa board
// check), so the envelope's 360-character cut can drop only the end of its
// --force sentence: where the worst values leave no room for the whole
// evidence, it is cut to fit (the --json "evidence" keeps it whole).
//
// The line never names the estate's --home, even when it is not the
// default: `pa --home DIR dispatch unlock` would no longer lead with `pa
// dispatch unlock`, and DIR is a path of any length, so the line would no
// longer be bounded and the envelope's cut could drop more than the end of
// the --force sentence. The whole command, --home included, is
// problemCommand's (the --json "command" field); the plain line is read by
// the operator who ran the check, in the estate they named. Only the lines
// that are not bounded so name the command whole: a lock name holding no
// regular file's, and a dispatch not on the board's (`...; put it there
// with pa board repair --agent NAME`).
func problemLine(home string, p dispatch.Problem) string {
	switch p.Kind {
	case dispatch.KindLockHeld:
		if p.Lock.State == locking.StateUnreadable {
			// No pid to lead with: the lock itself is the subject.
			return fmt.Sprintf("pa dispatch unlock: %s is %s, older than the %s stale window; use --force %s",
				estate.Display(p.Agent, p.Path), lockview.Describe(p.Lock), formatWindow(p.StaleWindow), forceOnlyWhen)
		}
		line := heldLine(p, p.Lock)
		if over := utf8.RuneCountInString(line) - maxHeldLine; over > 0 && p.Lock.Evidence != "" {
			// The evidence is what may not fit beside the worst values
			// (capped names, a hostile acquiredAt, the longest window):
			// cut to fit; --json "evidence" keeps it whole.
			h := p.Lock
			h.Evidence = cutRunes(h.Evidence, over)
			line = heldLine(p, h)
		}
		return line
	case dispatch.KindNotOnBoard:
		return fmt.Sprintf("dispatch %d is in %s but not on the board %s; put it there with %s",
			p.DispatchID, estate.Display(p.Agent, estate.SpawnLogPath(p.Agent)), estate.Display(p.Agent, p.Path), problemCommand(home, p))
	case dispatch.KindCorrupt:
		return fmt.Sprintf("%s does not parse: %s", estate.Display(p.Agent, p.Path), termsafe.Escape(p.Err))
	case dispatch.KindUnreadable:
		if p.Lock.Mode != 0 {
			return notALockLine(p, problemCommand(home, p))
		}
		return fmt.Sprintf("%s cannot be read: %s; look at it and fix or move it by hand", estate.Display(p.Agent, p.Path), termsafe.Escape(p.Err))
	}
	return string(p.Kind)
}

// heldLine is the lock-held line of p for its lock's holder h.
func heldLine(p dispatch.Problem, h locking.Holder) string {
	line := fmt.Sprintf("pa dispatch unlock: %s has held %s past the %s stale window",
		lockview.Describe(h), estate.Display(p.Agent, p.Path), formatWindow(p.StaleWindow))
	if h.State != locking.StateDead {
		line += "; use --force " + forceOnlyWhen
	}
	return line
}

// maxHeldLine is the spec's bound on the lock-held line (spec: pa board
// check), so that the envelope's cut at 360 can drop only the end of its
// --force sentence. A provably dead holder's line, which has no --force
// sentence, stays below 360 whatever its evidence (the longest, a reused
// pid's with two 20-digit start times, about 350 with the worst values).
const maxHeldLine = 362

// cutRunes is s shortened by over characters at least, its end replaced
// by "...", or "" when that leaves nothing of it.
func cutRunes(s string, over int) string {
	r := []rune(s)
	keep := len(r) - over - len("...")
	if keep < 1 {
		return ""
	}
	return string(r[:keep]) + "..."
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
// (command, problemCommand's) and why --force is safe there.
func notALockLine(p dispatch.Problem, command string) string {
	what := fmt.Sprintf("%s cannot be read: %s", estate.Display(p.Agent, p.Path), p.Err)
	switch {
	case p.Lock.Mode&fs.ModeDir != 0:
		return what + "; no pa dispatch unlock removes a directory: look at it and remove it by hand"
	case p.Lock.Mode&fs.ModeSymlink != 0:
		return what + "; look at it, then remove it by hand or with " + command + " (the link, never its target; it is no writer's lock, so no holder can lose it)"
	}
	return what + "; look at it, then remove it by hand or with " + command + " (it is no writer's lock, so no holder can lose it)"
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
