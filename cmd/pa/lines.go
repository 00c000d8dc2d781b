package main

import (
	"errors"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/internal/lockview"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// The exit-2 lines of a lock. Each leads with the lock (the agent capped for
// display) and the holder's pid, then its host, state, age and acquiredAt
// (lockview.Describe, every value read from disk escaped and capped),
// and names the one command that clears it with the whole agent name and,
// outside the default estate, --home (spec: The lock file and the names
// beside it; Unlock).

// advice words the lines about one agent's lock in the estate a command ran
// on: the lock as messages show it and the commands that act on it.
type advice struct {
	pa    string // how commands start: "pa", or "pa --home DIR" (globals.program)
	home  string // --home made absolute, "" for the default estate
	dir   string // the estate's folder (globals.dir)
	agent string
	// fsys is the estate, read when a line is written to tell whether
	// this user can run the unlock it advises (lockOnly); nil: it can.
	fsys vfs.FS
}

// adviceFor is the advice for agent in g's estate, opened as fsys.
func (g *globals) adviceFor(agent string, fsys vfs.FS) advice {
	return advice{pa: g.program(), home: g.home, dir: g.dir, agent: agent, fsys: fsys}
}

// lock is the agent's spawn-log lock, capped for display.
func (a advice) lock() string { return lockDisplay(a.agent) }

// unlock is the unlock command for a holder in state: --force for any
// holder not provably dead.
func (a advice) unlock(state locking.State) string {
	return unlockCommand(a.home, a.agent, locking.Holder{State: state})
}

// held is the lock and its holder: `<lock> held by pid 1234 on host "h"
// (alive, age 3s, acquiredAt ...)`, or for a lock that names no holder
// `<lock> is an empty lock (0 bytes, age 3s)`.
func (a advice) held(h locking.Holder) string { return lockview.HeldBy(a.lock(), h) }

// holder is what unlock prints after the lock and ": ": `held by pid ...`,
// or `an empty lock (0 bytes, age 3s)`.
func holder(h locking.Holder) string {
	if h.State == locking.StateUnreadable {
		return lockview.Describe(h)
	}
	return "held by " + lockview.Describe(h)
}

// forceOnlyWhen is the spec's sentence on when --force is right, as every
// line of pa's that names --force says it (the board check's lines, in
// problem.go, too). It is written nowhere else.
const forceOnlyWhen = "only once the holder's process is gone or stuck, never while it still runs"

// clearWith names the command that clears a lock held by h and, for a
// holder not provably dead, when --force is right; run as the lock's
// owner or root where only they can move it (lockOnly). A name under the
// lock that is not a regular file (h.Mode not 0: a directory, a named
// pipe, a symbolic link) is no writer's lock: it is said as the board
// check says it (notALockClearing), never with the --force sentence,
// which speaks of a holder.
func (a advice) clearWith(h locking.Holder) string {
	if h.State == locking.StateUnreadable && h.Mode != 0 {
		owner, _ := lockOnly(a.fsys, a.agent)
		c := clearing{owner: owner, forceRemovesDir: h.Mode.IsDir() && forceRemovesDir(a.fsys, a.agent)}
		return notALockClearing(a.unlock(h.State), h.Mode, c)
	}
	cmd := a.unlockAs(h.State, "")
	if h.State == locking.StateDead {
		return "clear it with " + cmd
	}
	return "clear it with " + cmd + ", " + forceOnlyWhen
}

// unlockAs is the unlock for a holder in state followed by tail (" again",
// or ""), said run as the lock's owner or root where only they can move it
// (lockOnly): `pa dispatch unlock --agent demo again as uid 4001 (alice) or
// as root`.
func (a advice) unlockAs(state locking.State, tail string) string {
	cmd := a.unlock(state) + tail
	if owner, ok := lockOnly(a.fsys, a.agent); ok {
		cmd = asOwner(cmd, owner)
	}
	return cmd
}

// then joins the lead of a line (a lock and its holder) to what follows as
// one sentence: with ": " after most leads, with "; " after the lead of a
// name that is not a regular file, which ends in a clause of its own
// (`<lock> is not a regular file (a directory, age 6ms): not a lock`), so
// that no line reads `...: not a lock: gave up ...`.
func then(lead string) string {
	if strings.HasSuffix(lead, ": not a lock") {
		return lead + "; "
	}
	return lead + ": "
}

// notALock is the advice for a directory under the lock name that holds
// more than a lock's record, as board check words it (notALockAdvice): no
// unlock removes it, so the operator does, or the lock's owner or root
// alone where only they can (lockOnly). One that holds at most that,
// unlock --force removes (clearWith).
func (a advice) notALock() string {
	owner, _ := lockOnly(a.fsys, a.agent)
	return notALockAdvice("", clearing{owner: owner})
}

// gaveUp says how a writer's wait ended: at once with --wait 0, else after
// the time it waited.
func gaveUp(wait, waited time.Duration) string {
	if wait == 0 {
		return "gave up at once (--wait 0)"
	}
	return "gave up after " + display.Age(waited)
}

// lockError turns an error of the lock that carries its holder (a
// timeout, a refusal, a busy claim) or a directory under the lock name into
// pa's exit-2 line; other errors are returned as they are. wait is --wait
// (open), for a timeout's line.
func (a advice) lockError(err error, wait time.Duration) error {
	var te *locking.TimeoutError
	var re *locking.RefusedError
	var be *locking.BusyError
	switch {
	case errors.As(err, &te) && te.Claim != nil:
		// A dead holder that another breaker's live claim kept this
		// writer from breaking: that breaker is stuck or its pid reused,
		// so only --force clears it.
		return fail(exitProblem, "%s%s; %s is breaking it; %s", then(a.held(te.Holder)), gaveUp(wait, te.Waited),
			claimOwner(*te.Claim), a.clearWith(locking.Holder{State: locking.StateAlive}))
	case errors.As(err, &te):
		return fail(exitProblem, "%s%s; %s", then(a.held(te.Holder)), gaveUp(wait, te.Waited), a.clearWith(te.Holder))
	case errors.As(err, &re):
		return fail(exitProblem, "%snot removed; %s", then(a.held(re.Holder)), a.clearWith(re.Holder))
	case errors.As(err, &be):
		// The one command: the same unlock again, once that breaker is
		// done (spec: Unlock names the claim's owner, not --force).
		return fail(exitProblem, "%snot removed, %s is breaking it; run %s",
			then(a.held(be.Holder)), claimOwner(be.Claim), a.unlockAs(locking.StateDead, " again"))
	case errors.Is(err, locking.ErrNotALock):
		return fail(exitProblem, "%s is a directory, not a lock; nothing removed; %s", a.lock(), a.notALock())
	}
	return err
}

// claimOwner names a breaker's claim: its pid, its host hash and the
// claim's own name (escaped), without the folder.
func claimOwner(c locking.ClaimOwner) string { return lockview.Claim(c) }
