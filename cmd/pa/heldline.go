package main

import (
	"strings"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/lockview"
	"github.com/pa-toolkit/pa/locking"
)

// The line of `pa board check` for a lock held past the stale window, and
// how it keeps within the spec's bound (spec: pa board check).

// maxHeldLine is the spec's bound on the lock-held line (spec: pa board
// check): the envelope's cut at 360 can drop at most the last two
// characters of the line's --force sentence, which ends it.
const maxHeldLine = 362

// maxDeadLine is the bound on the lock-held line of a provably dead holder,
// which has no --force sentence and ends with its command: the envelope's
// cut at 360 never reaches it, so no hook is given a command cut short.
const maxDeadLine = 360

// commandInJSON is what the lock-held line says in place of the command
// when the agent's whole name leaves it no room:
// where the whole command is (problemCommand, the --json "command"), never
// the command cut short. It names no command of its own to paste, so it
// is true in every estate.
const commandInJSON = `the "command" this check prints with --json`

// lockHeldLine is the line of a lock held past the stale window (p.Kind is
// dispatch.KindLockHeld). It leads with what is wrong, the lock held past
// the window by its holder (pid, host, state and the evidence that decided
// it, age, acquiredAt; a lock that names no holder as what it is, an empty
// lock, say), then the whole command that clears it, the agent whole and
// shell-quoted, --home included outside the default estate, as
// problemCommand gives it for home, and for a holder not provably dead when to use
// --force: `agents/demo/spawn-log.json.lock held by pid 4242 on host "h"
// (alive: holds the lock's kernel lock, age 5m2s, acquiredAt ...) past the
// 60s stale window; clear it with pa dispatch unlock --force --agent demo,
// only once the holder's process is gone or stuck, never while it still
// runs`.
//
// Every value read from disk is escaped and capped for display, but the
// agent's name and the --home in the command are whole (a name up to 255
// bytes, a path of any length), so the line fits
// its bound (maxHeldLine; maxDeadLine for a dead holder) in this order: the
// evidence is cut to fit (the --json "evidence" keeps it whole); where the
// command does not fit even so, the line says, in its place, where the
// whole command is (commandInJSON), never a command cut short; and where
// even that does not fit beside the worst values (a long host name in
// another pid namespace, a file time decades off, a stale window of years,
// a hostile acquiredAt), the acquiredAt shown is cut, then the host shown,
// each ending in "..." (--json keeps them whole).
//
// owner, when not "", is the user who alone, but root, can clear the lock
// (lockOnly): the command, or commandInJSON, is then said run as that user
// or root (asOwner), within the same bound; a user name too long for it
// is left out last, the uid kept.
func lockHeldLine(home string, p dispatch.Problem, owner string) string {
	bound := maxHeldLine
	if p.Lock.State == locking.StateDead {
		bound = maxDeadLine
	}
	as := func(cmd string) string {
		if owner == "" {
			return cmd
		}
		return asOwner(cmd, owner)
	}
	h := p.Lock
	if line, ok := fitHeld(p, h, as(problemCommand(home, p)), bound); ok {
		return line
	}
	inJSON := as(commandInJSON)
	line, ok := fitHeld(p, h, inJSON, bound)
	for _, v := range []*string{&h.AcquiredAt, &h.Hostname} {
		whole := *v
		for end := len(whole); !ok && end > 0; {
			_, size := utf8.DecodeLastRuneInString(whole[:end])
			end -= size
			*v = whole[:end] + "..."
			line, ok = fitHeld(p, h, inJSON, bound)
		}
	}
	if i := strings.Index(owner, " ("); !ok && i > 0 {
		// A long user name: the owner is said by uid alone.
		line, _ = fitHeld(p, h, asOwner(commandInJSON, owner[:i]), bound)
	}
	return line
}

func fitHeld(p dispatch.Problem, h locking.Holder, clear string, bound int) (string, bool) {
	line := heldLine(p, h, clear)
	if over := utf8.RuneCountInString(line) - bound; over > 0 && h.Evidence != "" {
		h.Evidence = cutRunes(h.Evidence, over)
		line = heldLine(p, h, clear)
	}
	return line, utf8.RuneCountInString(line) <= bound
}

// heldLine is the lock-held line of p for its lock's holder h, naming
// clear (the command, or commandInJSON) as what clears it.
func heldLine(p dispatch.Problem, h locking.Holder, clear string) string {
	lock := estate.Display(p.Agent, p.Path)
	window := formatWindow(p.StaleWindow)
	line := lockview.HeldBy(lock, h) + " past the " + window + " stale window"
	if h.State == locking.StateUnreadable {
		// No holder: the lock itself is what is old.
		line = lockview.HeldBy(lock, h) + ", older than the " + window + " stale window"
	}
	line += "; clear it with " + clear
	if h.State != locking.StateDead {
		line += ", " + forceOnlyWhen
	}
	return line
}

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
