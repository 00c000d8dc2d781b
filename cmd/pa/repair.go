package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// repairCmd is `pa board repair`.
type repairCmd struct {
	Agent string        `help:"Repair this agent's board only (default: every agent)." env:"PA_AGENT" predictor:"agent" placeholder:"NAME" type:"needed"`
	JSON  bool          `name:"json" help:"Print the items added as one JSON object."`
	Wait  time.Duration `help:"How long to wait for a held lock (0: fail at once; default ${default})." default:"10s" placeholder:"DURATION" type:"wait"`
}

// Help is the command's long help.
func (c *repairCmd) Help() string {
	return `Puts on agents/<agent>/board/board.json every dispatch of the agent's
spawn-log that is missing from it: what pa board check reports as "dispatch N
is in ... but not on the board" (a pa dispatch open whose lock was lost before
its board write, or that was killed between the two). Run it when board check
names such a dispatch; it is the command that line names.

It takes the spawn-log lock, as pa dispatch open does, reads the spawn-log and
the board under it, and adds one item for each missing dispatch (its id and
title, added now), in the spawn-log's order and after the board's own items,
in one write behind the lock's fence. Nothing else changes: no item of the
board is dropped, changed or moved, the spawn-log is not written, and a board
that has every dispatch is not written at all. A lock held by a live process
is never broken: after --wait, repair fails with one line naming the holder
and the pa dispatch unlock command that clears it. On a terminal, once it has
waited about a second, it says so on stderr in one line: the holder and until
when. A lock whose holder is provably dead is broken at once, and one line on
stderr names it and what proved its holder dead. --json prints neither line.
Creates no estate and no agent folder.

Output: one line for each dispatch added, or one line saying the board
already has every dispatch (--json: {"added":[{"agent","path","dispatchId",
"title","addedAt"}...]}, values whole).

Exit codes: 0 repaired, or nothing to add; 1 usage or bad input (a bad agent
name or one spelled otherwise on disk on a volume that ignores case, no estate
at --home, an agent named that has no folder in the estate, a
spawn-log or board that does not parse or cannot be read: nothing is
written); 2 the lock is held, the wait was interrupted, the lock was lost
before the board's rename, or a file operation of the lock or of the board's
write failed (nothing is written), or the board is written but its folder's
sync or the lock's release failed. Each exit-2 line leads with the lock and
its holder's pid, or says there is none, and names one command. Without
--agent the other agents go on after an agent's error.

Example:
  pa board repair --agent demo`
}

// jsonAdded is one item added, in --json: the agent and the board, then
// the item as written.
type jsonAdded struct {
	Agent string `json:"agent"`
	Path  string `json:"path"`
	board.Item
}

// Run repairs one agent's board, or every agent's.
func (c *repairCmd) Run(ctx context.Context, g *globals, out *output) error {
	opts, fsys, closeFS, agents, err := g.openLocked(c.Agent, c.Wait, false)
	if err != nil {
		return err
	}
	defer closeFS()
	all := []jsonAdded{}
	code := exitOK
	for _, agent := range agents {
		added, err := c.repairOne(ctx, fsys, g.adviceFor(agent, fsys), withLabels(opts, agent, operationRepair, policy.Mutation), out)
		for _, it := range added {
			all = append(all, jsonAdded{Agent: agent, Path: estate.BoardPath(agent), Item: it})
			if !c.JSON {
				fmt.Fprintln(out.stdout, addedLine(agent, it))
			}
		}
		if err == nil {
			continue
		}
		if c.Agent == "" && osfs.IsEscape(err) {
			// An agent folder leading out of the estate, met among every
			// agent: refused, named, and the others go on (with --agent
			// it is bad input, exit 1).
			err = &exitError{code: exitProblem, msg: plainError(agent, err)}
		} else {
			err = repairError(fsys, g.adviceFor(agent, fsys), c.Wait, added, err, opts)
		}
		var ee *exitError
		if c.Agent != "" || ctx.Err() != nil || !errors.As(err, &ee) {
			// One agent, or Ctrl-C: stop here, touching no other
			// agent's board.
			c.printJSON(out, all)
			return err
		}
		// Report this agent's error and go on with the others.
		fmt.Fprintf(out.stderr, "pa: %s\n", oneLine(ee.msg))
		code = max(code, ee.code)
	}
	c.printJSON(out, all)
	switch {
	case code != exitOK:
		return &exitError{code: code}
	case len(all) > 0 || c.JSON:
	case c.Agent != "":
		fmt.Fprintf(out.stdout, "%s already has every dispatch of %s\n",
			estate.Display(c.Agent, estate.BoardPath(c.Agent)), estate.Display(c.Agent, estate.SpawnLogPath(c.Agent)))
	default:
		fmt.Fprintf(out.stdout, "every board already has every dispatch of its spawn-log (%s)\n", count(len(agents), "agent", "agents"))
	}
	return nil
}

// repairOne repairs one agent's board, printing on stderr, as dispatch
// open does, the wait line (on a terminal) and the break line while it
// takes the lock; none with --json, and none once Repair has returned.
func (c *repairCmd) repairOne(ctx context.Context, fsys vfs.FS, a advice, opts locking.Options, out *output) ([]board.Item, error) {
	events := &lockEvents{stderr: out.stderr, a: a}
	if !c.JSON {
		events.observe(&opts, isTerminal(out.stderr))
	}
	added, err := dispatch.Repair(ctx, fsys, a.agent, opts)
	events.end()
	return added, err
}

// printJSON prints the items added as one JSON object, with --json.
func (c *repairCmd) printJSON(out *output, all []jsonAdded) {
	if c.JSON {
		fmt.Fprintf(out.stdout, "%s\n", marshalJSON(map[string]any{"added": all}))
	}
}

// addedLine is the line of one item added to agent's board: `added
// dispatch 3 ("title") to agents/demo/board/board.json`, the title escaped
// (termsafe.Value) and the agent in the path capped for display.
func addedLine(agent string, it board.Item) string {
	return fmt.Sprintf("added dispatch %d (\"%s\") to %s", it.DispatchID, termsafe.Value(it.Title), estate.Display(agent, estate.BoardPath(agent)))
}

// repairCommand is the one command that puts agent's missing dispatches on
// its board in the estate home ("" for the default, see programFor): `pa
// board repair --agent NAME`, the whole name shell-quoted when it needs it.
func repairCommand(home, agent string) string {
	return programFor(home) + " board repair " + agentFlag(agent)
}

// repair is the repair command for a's agent, run as the owner of its
// board or lock folder or as root where only they can (repairOnly).
func (a advice) repair() string {
	cmd := repairCommand(a.home, a.agent)
	if owner, ok := repairOnly(a.fsys, a.agent); ok {
		return asOwner(cmd, owner)
	}
	return cmd
}

// repairError turns an error of dispatch.Repair into pa's line and exit
// code, in the words of pa dispatch open's (openError): 2 for the lock
// (held, lost before the board's rename, the wait interrupted, a file
// operation of the lock that failed), for a board write that failed and
// for a board written whose folder's sync or lock's release failed (added
// is what landed); 1 for bad input (a spawn-log or board that does not
// parse or cannot be read as a file, a bad agent name). Every exit-2 line
// leads with the lock and its holder's pid (the holder the error carries,
// else the lock as read now) and names one command. It always returns an
// *exitError.
func repairError(fsys vfs.FS, a advice, wait time.Duration, added []board.Item, err error, opts locking.Options) error {
	agent := a.agent
	boardName := estate.Display(agent, estate.BoardPath(agent))
	var ns *locking.NotSyncedError
	refused, byOwner := refusedByOwner(fsys, agent, err)
	switch {
	case byOwner && (!refused.read || refused.ofLock(agent)) && added == nil:
		// Another user's lock or board, as open's line says it.
		return a.refusedLine(fsys, opts, refused, repairCommand(a.home, agent))
	case errors.As(err, &ns) && added != nil:
		return fail(exitProblem, "%s%s is written, but syncing its folder failed: %s; %s board check %s shows what is on it",
			then(a.now(fsys, opts).lead), boardName, reason(agent, ns.Err), a.pa, agentFlag(agent))
	case lockFault(agent, err) && added != nil:
		// Landed behind its fence; only the release failed.
		n := a.now(fsys, opts)
		return fail(exitProblem, "%s%s is written, but releasing the lock failed: %s; %s",
			then(n.lead), boardName, reason(agent, err), n.or("the lock is free now"))
	case errors.Is(err, locking.ErrLockLost):
		// The fence before the board's rename found the lock taken from
		// this repair: name whoever holds it now.
		n := a.now(fsys, opts)
		return fail(exitProblem, "%sthis repair lost its lock before the board's rename; nothing was written; %s",
			then(n.lead), n.or("the lock is free now, try again"))
	case errors.Is(err, context.Canceled):
		n := a.now(fsys, opts)
		return fail(exitProblem, "%sinterrupted while waiting for it: nothing written; %s", then(n.lead), n.or("the lock is free now, try again"))
	case errors.Is(err, spawnlog.ErrCorrupt), errors.Is(err, board.ErrCorrupt), errors.Is(err, estate.ErrInvalidAgent),
		errors.Is(err, estate.ErrSpelling):
		return fail(exitUsage, "%s", plainError(agent, err))
	case lockFault(agent, err):
		n := a.now(fsys, opts)
		return fail(exitProblem, "%slock error: %s; nothing was written; %s", then(n.lead), reason(agent, err), n.orTryAgain(err))
	case boardWriteFault(agent, err):
		n := a.now(fsys, opts)
		return fail(exitProblem, "%swriting %s failed: %s; nothing was written; %s", then(n.lead), boardName, reason(agent, err), n.orTryAgain(err))
	case dispatch.IsUnreadable(err) && !osfs.IsEscape(err):
		// The spawn-log or board cannot be read as a file (a directory in
		// its place, say): bad input, in board check's words.
		return fail(exitUsage, "%s", problemLine(a.home, dispatch.UnreadableProblem(fsys, agent, err)))
	}
	var ee *exitError
	if err = a.lockError(err, wait); errors.As(err, &ee) {
		return err
	}
	return fail(exitUsage, "%s", plainError(agent, err))
}

// boardWriteFault reports whether err is a failed file operation of the
// board's write of agent (the board folder made, the board's temp file
// written or renamed): an *fs.PathError or *os.LinkError anywhere in its
// tree on the board folder or on a temp file beside the board.
func boardWriteFault(agent string, err error) bool {
	dir, tmp := estate.BoardDir(agent), estate.BoardPath(agent)+".tmp-"
	found := false
	walkErrors(err, func(e error) {
		switch e := e.(type) {
		case *fs.PathError:
			found = found || e.Path == dir && e.Op == "mkdir" || strings.HasPrefix(e.Path, tmp)
		case *os.LinkError:
			found = found || strings.HasPrefix(e.Old, tmp)
		}
	})
	return found
}
