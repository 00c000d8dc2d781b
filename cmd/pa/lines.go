package main

import (
	"errors"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/locking"
)

// The exit-2 lines of a lock. Each leads with the lock (the agent capped for
// display) and the holder's pid, then its host, state, age and acquiredAt
// (locking.Holder.Describe, every value read from disk escaped and capped),
// and names the one command that clears it with the whole agent name
// (spec: The lock file and the names beside it; Unlock).

// clearWith names the command that clears a lock held by h and, for a
// holder not provably dead, when --force is right.
func clearWith(agent string, h locking.Holder) string {
	cmd := board.UnlockCommand(agent, h)
	if h.State == locking.StateDead {
		return "clear it with " + cmd
	}
	return "clear it with " + cmd + ", " + board.ForceWhen
}

// lockError turns an error of the lock into pa's exit-2 line; other errors
// are returned as they are.
func lockError(agent string, err error) error {
	var te *locking.TimeoutError
	var re *locking.RefusedError
	var be *locking.BusyError
	switch {
	case errors.As(err, &te):
		return fail(exitProblem, "%s held by %s: gave up after %s; %s",
			lockDisplay(agent), te.Holder.Describe(), locking.FormatAge(te.Waited), clearWith(agent, te.Holder))
	case errors.As(err, &re):
		return fail(exitProblem, "%s held by %s: not removed; %s",
			lockDisplay(agent), re.Holder.Describe(), clearWith(agent, re.Holder))
	case errors.As(err, &be):
		return fail(exitProblem, "%s held by %s: not removed, pid %d (host %s) is breaking it (claim %s); run %s again once that process is gone or stuck",
			lockDisplay(agent), be.Holder.Describe(), be.Claim.PID, be.Claim.HostHash,
			locking.CapForDisplay(be.Claim.Claim), board.UnlockCommand(agent, locking.Holder{State: locking.StateDead}))
	case errors.Is(err, locking.ErrLockLost):
		return fail(exitProblem, "%s: this writer's lock was lost and the wait ran out before a fresh hold; nothing was written; run %s to see who holds it",
			lockDisplay(agent), board.UnlockCommand(agent, locking.Holder{State: locking.StateDead}))
	}
	return err
}

// inputError turns a usage or bad-input error (a bad agent name, a
// spawn-log or board that does not parse) into exit 1; other errors are
// returned as they are.
func inputError(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return fail(exitUsage, "%s", locking.DisplayValue(err.Error()))
}
