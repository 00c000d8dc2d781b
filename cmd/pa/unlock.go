package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// unlockCmd is `pa dispatch unlock`.
type unlockCmd struct {
	Force bool   `help:"Remove the lock whatever its holder: the operator's decision, since pa cannot tell a holder that is stuck from one that still runs. It prints the holder first, and says so when the holder is alive for certain (it holds the lock's kernel lock). Only once the holder's process is gone or stuck, never while it still runs."`
	Agent string `help:"The agent whose spawn-log lock to remove (default: every agent; --force needs it)." env:"PA_AGENT" predictor:"agent" placeholder:"NAME" type:"needed"`
}

// Help is the command's long help.
func (c *unlockCmd) Help() string {
	return `Reads the spawn-log lock, prints its holder and what decided its state, then
removes it if its holder is provably dead: of this host, with the lock's kernel
lock free (unless its pid answers as the holder, started when it did), or, in
pa's own pid namespace, its pid gone or now another process's (it started at
another time), or of an earlier boot; for a lock of the spec's four fields, on
this host and its pid gone. Any other holder (alive, on another host, in
another pid namespace of this host with its kernel lock not free, a reused pid
of a lock that records neither start time nor kernel lock, an empty or
unreadable lock) is refused and the lock is left byte for byte, unless
--force: then the lock is removed whatever its holder, after its holder is
printed, and for a holder that holds the lock's kernel lock, that it is alive
for certain (a stopped process holds it too). --force is the operator's
decision: pa cannot tell a holder that is stuck from one that is slow. Use it
` + forceOnlyWhen + `: a
holder still running can then lose a record. A lock that changed since it was
read is never removed.
A symbolic link or a named pipe under the lock's name is a lock that does not
parse: --force removes it (a link, never its target), and a directory that
holds at most a lock's record (nothing, or one regular file: the directory
publish's shape); one that holds more is never removed, --force or not: look
at it and remove it by hand.
Removes nothing but the lock and creates no folder: an estate that does not
exist is an error.

Exit codes: 0 removed, or no lock (for an agent named that has no folder in
the estate, the line says nothing is recorded for it); 1 usage or bad input
(no estate at --home, an agent spelled otherwise on disk on a volume that
ignores case); 2 refused (the holder is not provably dead, another
breaker is on it, it changed, or Ctrl-C while waiting for another breaker), a
file operation of the lock failed, or, without --agent, an agent folder is a
symbolic link out of the estate (never followed; the other agents go on).
Each exit-2 line leads with the lock and its holder's pid, or says there is
none, and names one command.

Example:
  pa dispatch unlock --agent demo`
}

// Run unlocks one agent, or every agent of the estate.
func (c *unlockCmd) Run(ctx context.Context, g *globals, out *output) error {
	if c.Force && c.Agent == "" {
		// --force removes a lock whatever its holder: one agent at a time,
		// named by the operator, never every lock of the estate at once.
		return fail(exitUsage, "--force needs --agent NAME (or PA_AGENT): it removes one agent's lock whatever its holder, so use it %s", forceOnlyWhen)
	}
	if c.Agent != "" {
		if err := checkAgent(c.Agent); err != nil {
			return err
		}
	}
	opts, err := lockOptions(0) // unlock waits only for a busy claim (1 s)
	if err != nil {
		return err
	}
	fsys, closeFS, err := g.openEstate(false)
	if err != nil {
		return err
	}
	defer closeFS()
	if c.Agent != "" {
		if err := agentFolder(fsys, c.Agent); err != nil {
			return err
		}
	}
	agents, err := agentsOf(fsys, c.Agent)
	if err != nil {
		return err
	}
	code, found := exitOK, 0
	for _, agent := range agents {
		held, err := c.unlockOne(ctx, fsys, g.adviceFor(agent, fsys), opts, out)
		if held {
			found++
		}
		var ee *exitError
		switch {
		case err == nil:
			continue
		case ctx.Err() != nil:
			// Ctrl-C (while waiting for another breaker's claim): stop
			// here, touching no other agent's lock.
			return err
		case c.Agent == "" && osfs.IsEscape(err):
			// An agent folder leading out of the estate, met among every
			// agent: refused, named, and the others go on (with --agent
			// it is bad input, exit 1).
			ee = &exitError{code: exitProblem, msg: plainError(agent, err)}
		case !errors.As(err, &ee) || ee.code != exitProblem:
			return err
		}
		// Report this agent's refusal or lock error and go on with the
		// others.
		fmt.Fprintf(out.stderr, "pa: %s\n", oneLine(ee.msg))
		code = exitProblem
	}
	if found == 0 && code == exitOK && c.Agent == "" {
		fmt.Fprintf(out.stdout, "no spawn-log lock in the estate (%s)\n", count(len(agents), "agent", "agents"))
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// unlockOne unlocks one agent's lock (spec: Unlock): it prints the holder,
// with --force that it is alive for certain where its kernel lock says so,
// then "removed" once it is. held says whether a lock was there. The error
// is an *exitError of exit 2 with its line for a refusal, a busy claim, a
// lock that changed, Ctrl-C while waiting and a file operation of the lock
// that failed; any other error (a name that leads out of the estate, say)
// is returned as it is.
func (c *unlockCmd) unlockOne(ctx context.Context, fsys vfs.FS, a advice, opts locking.Options, out *output) (held bool, err error) {
	agent := a.agent
	name := estate.SpawnLogPath(agent)
	opts.Operation = operationUnlock // the incident row of a forced unlock says who forced it
	h, err := locking.Inspect(fsys, name, opts)
	r, byOwner := refusedByOwner(fsys, agent, err)
	switch {
	case errors.Is(err, fs.ErrNotExist) && c.Agent != "" && !hasAgent(fsys, agent):
		// No lock, as the spec's row says (exit 0), but most likely a
		// mistyped name: say that nothing is recorded for it.
		fmt.Fprintf(out.stdout, "%s: no lock; %s\n", a.lock(), noAgent(a.dir, agent))
		return false, nil
	case errors.Is(err, fs.ErrNotExist):
		if c.Agent != "" {
			fmt.Fprintf(out.stdout, "%s: no lock\n", a.lock())
		}
		return false, nil
	case byOwner:
		// Another user's lock this one may not read.
		return false, fail(exitProblem, "%s (holder not read): %s; nothing removed; %s", a.lock(), r, "run "+r.as(a.unlock(unlockState(c.Force))))
	case lockFault(agent, err):
		// The lock cannot be read (a permission, an I/O error).
		return false, fail(exitProblem, "%s (holder not read): %s; nothing removed; %s", a.lock(), reason(agent, err), a.notRead())
	case err != nil:
		return false, err
	}
	if h.State == locking.StateUnreadable && h.Mode != 0 {
		// Not a regular file: `<lock> is not a regular file (a named
		// pipe, age 3s): not a lock`, one colon.
		fmt.Fprintln(out.stdout, a.held(h))
	} else {
		fmt.Fprintf(out.stdout, "%s: %s\n", a.lock(), holder(h))
	}
	if c.Force && aliveForCertain(h) {
		// --force over a holder the kernel proves alive: removed as asked
		// (a stopped process holds its kernel lock too), said plainly
		// before; the removed line stays as it is for any holder.
		fmt.Fprintf(out.stdout, "%s: %s\n", a.lock(), aliveAllTheSame)
	}
	opts.OnIncidentError = func(_, _ string, ierr error) {
		// Told before Unlock returns: the removed line follows it.
		fmt.Fprintf(out.stderr, "pa: %s\n", incidentNotWritten(a.lock(), "forced unlock", ierr))
	}
	err = locking.Unlock(ctx, fsys, name, h, c.Force, opts)
	r, byOwner = refusedByOwner(fsys, agent, err)
	switch {
	case err == nil:
		fmt.Fprintf(out.stdout, "%s: removed\n", a.lock())
		return true, nil
	case errors.Is(err, locking.ErrLockChanged):
		return true, a.changed(h, c.Force)
	case errors.Is(err, context.Canceled):
		return true, fail(exitProblem, "%sinterrupted while waiting for another breaker: nothing removed; run %s",
			then(a.held(h)), a.unlockAs(locking.StateDead, " again"))
	case byOwner:
		// Another user's lock, in a folder where only its owner or root
		// may move it: the same unlock, run as one of them.
		again := "run " + r.as(a.unlock(unlockState(c.Force)))
		if c.Force {
			again += ", " + forceOnlyWhen
		}
		return true, fail(exitProblem, "%sunlock failed: %s; nothing removed; %s", then(a.now(fsys, opts).lead), r, again)
	case lockFault(agent, err):
		n := a.now(fsys, opts)
		tail := n.or("the lock is free now")
		if readOnly(err) {
			tail = readOnlyVolume // its own unlock again would fail the same way
		}
		return true, fail(exitProblem, "%sunlock failed: %s; %s", then(n.lead), reason(agent, err), tail)
	}
	return true, a.lockError(err, 0)
}

// aliveAllTheSame is what unlock --force says, after the holder, of a
// holder that holds the lock's kernel lock, before it removes the lock.
const aliveAllTheSame = "its holder is alive for certain: it holds the lock's kernel lock (a stopped process holds it too); " +
	"removing the lock all the same, as asked: if it still runs, it can lose a record"

// aliveForCertain reports whether h's holder is proven alive by the kernel:
// a process holds the lock's kernel lock, in whatever pid namespace.
func aliveForCertain(h locking.Holder) bool {
	return h.State == locking.StateAlive && h.Evidence == locking.EvidenceKernelLock
}

// changed is the exit-2 line of an unlock whose lock changed since it was
// read: nothing was removed, and the same command is to be run again (with
// --force, only once the holder's process is gone or stuck).
func (a advice) changed(h locking.Holder, force bool) error {
	again := "run " + a.unlockAs(unlockState(force), " again")
	if force {
		again += ", " + forceOnlyWhen
	}
	return fail(exitProblem, "%s changed since it was read: nothing removed; %s", a.held(h), again)
}

// unlockState is the holder state whose unlock command is the one given:
// --force for any holder not provably dead, none for a dead one.
func unlockState(force bool) locking.State {
	if force {
		return locking.StateAlive
	}
	return locking.StateDead
}

// count is n and the noun for it: "1 agent", "0 agents", "2 agents".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
