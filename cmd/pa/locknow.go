package main

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// lockNow is an agent's lock as read when a line is written, for the exit-2
// lines whose error carries no holder of its own (the wait interrupted, the
// lock lost, a file operation of the lock that failed): each still leads
// with the lock and its holder's pid, or says in that place that there is
// none (every exit-2 line leads with the lock and the pid).
type lockNow struct {
	// lead is `<lock> held by pid ...` (lockview.HeldBy), `<lock> is
	// an empty lock (...)`, `<lock> (no holder)` when the lock name is free,
	// or `<lock> (holder not read)` when it cannot be read.
	lead string
	// clear is the one command that clears the lock ("clear it with pa
	// dispatch unlock ..."), or "" when nothing holds it.
	clear string
	// state is the holder's state, as clear judges it (this pa's own
	// lock: dead once it exits), when clear is not "".
	state locking.State
}

// now reads the agent's lock (locking.Inspect: read-only) for a line. A
// lock held by this very process (a publish or a release of its own that
// failed) is named so: it is broken as a dead holder's once pa has exited,
// so the command that clears it is the unlock without --force.
func (a advice) now(fsys vfs.FS, opts locking.Options) lockNow {
	h, err := locking.Inspect(fsys, estate.SpawnLogPath(a.agent), opts)
	switch {
	case err == nil && thisProcess(h):
		return lockNow{lead: a.held(h) + ", this pa, which exits now", clear: a.clearWith(locking.Holder{State: locking.StateDead}), state: locking.StateDead}
	case err == nil:
		return lockNow{lead: a.held(h), clear: a.clearWith(h), state: h.State}
	case errors.Is(err, fs.ErrNotExist):
		return lockNow{lead: a.lock() + " (no holder)"}
	}
	return lockNow{lead: a.lock() + " (holder not read)", clear: a.notRead(), state: locking.StateDead}
}

// thisProcess reports whether h, as judged, is held by this very process:
// alive, with this process's pid, and not of another pid namespace, where
// that pid number is another process's (a holder there is judged alive by
// its kernel lock, whatever its pid).
func thisProcess(h locking.Holder) bool {
	if h.State != locking.StateAlive || h.PID != os.Getpid() {
		return false
	}
	ns := h.Identity.PIDNamespace
	if ns == 0 {
		return true // not recorded: the pid alone, as the spec judges it
	}
	ih, ok := locking.OSHost().(lockspec.IdentityHost)
	return ok && ih.Self().PIDNamespace == ns
}

// notRead is the advice for a lock pa cannot read (a permission, an I/O
// error): the operator looks, then runs the unlock that prints the holder.
func (a advice) notRead() string {
	return "pa cannot read it: look at it by hand, then run " + a.unlock(locking.StateDead)
}

// or is the lock's clear command, or free when nothing holds it.
func (n lockNow) or(free string) string {
	if n.clear == "" {
		return free
	}
	return n.clear
}

// lockFault reports whether err is a failed file operation of agent's lock
// (acquire, publish, break, release, unlock): an *fs.PathError or
// *os.LinkError anywhere in its tree on the lock or on a name beside it
// (pending, claim, broken: `<lock>.`...). Such an error is a lock error
// (exit 2), not bad input. A name that leads out of the estate is not one:
// that is the estate's folder, bad input (exit 1).
func lockFault(agent string, err error) bool {
	if err == nil || osfs.IsEscape(err) {
		return false
	}
	lock := locking.LockName(estate.SpawnLogPath(agent))
	ours := func(name string) bool { return name == lock || strings.HasPrefix(name, lock+".") }
	found := false
	walkErrors(err, func(e error) {
		switch e := e.(type) {
		case *fs.PathError:
			found = found || ours(e.Path)
		case *os.LinkError:
			found = found || ours(e.Old) || ours(e.New)
		}
	})
	return found
}

// walkErrors calls fn on err and on every error it wraps (Unwrap() error
// and Unwrap() []error).
func walkErrors(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		walkErrors(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			walkErrors(e, fn)
		}
	}
}

// reason is a failed file operation for a line, bounded: `write
// agents/<agent>/spawn-log.json.lock: no space left on device`, the agent
// in each name capped for display and the rest escaped; any other error
// escaped. Either is cut at 300 characters.
func reason(agent string, err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	var s string
	switch {
	case errors.As(err, &pe):
		s = pe.Op + " " + estate.Display(agent, pe.Path) + ": " + termsafe.Escape(pe.Err.Error())
	case errors.As(err, &le):
		s = le.Op + " " + estate.Display(agent, le.Old) + " " + estate.Display(agent, le.New) + ": " + termsafe.Escape(le.Err.Error())
	default:
		s = termsafe.Escape(err.Error())
	}
	if r := []rune(s); len(r) > 300 {
		return string(r[:297]) + "..."
	}
	return s
}
