package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
)

// unlockCmd is `pa dispatch unlock`.
type unlockCmd struct {
	Force bool   `help:"Remove the lock whatever its holder. Only once the holder's process is gone or stuck, never while it still runs."`
	Agent string `help:"The agent whose spawn-log lock to remove (default: every agent; --force needs it)." env:"PA_AGENT" placeholder:"NAME"`
}

// Help is the command's long help.
func (c *unlockCmd) Help() string {
	return `Reads the spawn-log lock, prints its holder, then removes it if its holder is
provably dead (on this host, its pid gone). Any other holder (alive, on another
host, a reused pid, an empty or unreadable lock) is refused and the lock is left
byte for byte, unless --force: then the lock is removed whatever its holder,
after its holder is printed. Use --force only once the holder's process is gone
or stuck, never while it still runs: a holder still running can then lose a
record. A lock that changed since it was read is never removed.

Exit codes: 0 removed, or no lock; 1 usage or bad input; 2 refused (the
holder is not provably dead, another breaker is on it, or it changed).

Example:
  pa dispatch unlock --agent demo`
}

// Run unlocks one agent, or every agent of the estate.
func (c *unlockCmd) Run(ctx context.Context, g *globals, out *output) error {
	if c.Force && c.Agent == "" {
		// --force removes a lock whatever its holder: one agent at a time,
		// named by the operator, never every lock of the estate at once.
		return fail(exitUsage, "--force needs --agent NAME (or PA_AGENT): it removes one agent's lock whatever its holder")
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
	fsys, closeFS, err := g.openEstate()
	if err != nil {
		return err
	}
	defer closeFS()
	agents, err := agentsOf(fsys, c.Agent)
	if err != nil {
		return err
	}
	code, found := exitOK, 0
	for _, agent := range agents {
		name := estate.SpawnLogPath(agent)
		h, err := locking.Inspect(fsys, name, opts)
		if errors.Is(err, fs.ErrNotExist) {
			if c.Agent != "" {
				fmt.Fprintf(out.stdout, "%s: no lock\n", lockDisplay(agent))
			}
			continue
		}
		if err != nil {
			return err
		}
		found++
		fmt.Fprintf(out.stdout, "%s: held by %s\n", lockDisplay(agent), h.Describe())
		err = locking.Unlock(ctx, fsys, name, h, c.Force, opts)
		if errors.Is(err, locking.ErrLockChanged) {
			err = fail(exitProblem, "%s held by %s changed since it was read: nothing removed; run %s again",
				lockDisplay(agent), h.Describe(), unlockAgain(agent, c.Force))
		}
		if err == nil {
			fmt.Fprintf(out.stdout, "%s: removed\n", lockDisplay(agent))
			continue
		}
		// Report this agent's refusal and go on with the others.
		var ee *exitError
		if !errors.As(lockError(agent, err), &ee) {
			return err
		}
		fmt.Fprintf(out.stderr, "pa: %s\n", oneLine(ee.msg))
		code = max(code, ee.code)
	}
	if found == 0 && c.Agent == "" {
		fmt.Fprintf(out.stdout, "no spawn-log lock in the estate (%d agents)\n", len(agents))
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// unlockAgain is the unlock command to run again, as it was given.
func unlockAgain(agent string, force bool) string {
	state := locking.StateDead
	if force {
		state = locking.StateAlive
	}
	return board.UnlockCommand(agent, locking.Holder{State: state})
}
