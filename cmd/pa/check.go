package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// checkCmd is `pa board check`.
type checkCmd struct {
	Agent        string        `help:"Check this agent only (default: every agent)." env:"PA_AGENT" predictor:"agent" placeholder:"NAME" type:"needed"`
	JSON         bool          `name:"json" help:"Print the problems as one JSON object."`
	HookEnvelope bool          `name:"hook-envelope" help:"Print one JSON object {\"ok\":...,\"problems\":[lines]} for a hook, each line cut at 360 characters; always exit 0, even on a usage error. With --json too, --hook-envelope wins: the envelope is printed, not the --json object."`
	StaleWindow  time.Duration `name:"stale-window" help:"Report a lock held longer than this (above 0; default ${default}). It only decides what is reported: no lock is ever broken for its age." default:"60s" placeholder:"DURATION" type:"window"`
}

// Help is the command's long help.
func (c *checkCmd) Help() string {
	return `Reports, for one agent or every agent: a spawn-log lock held longer than the
stale window (--stale-window, default 60s), with its holder and the pa
dispatch unlock command; every dispatch of the spawn-log that is not on the
board (one that a pa dispatch open still holding the lock, alive on this host,
on another host or in another pid namespace of this host, has committed and
not yet put on the board is waited for, up to 1s, and is not reported once it
is there), with the pa board repair command that puts it there; a spawn-log or board that does not parse; a lock, spawn-log or board
that cannot be read as a file (a directory or a named pipe in its place, no
permission, an I/O error: --json kind "unreadable"); without --agent, an
agent folder that is a symbolic link out of the estate (never followed).
After the problems, one line an agent whose spawn-log lock's incident log
has rows of the last stale window (timeouts, breaks of dead holders, forced
unlocks: "N lock incidents in the last 1m0s: pa dispatch incidents --agent
NAME"; --json: "incidents":[{agent,count,command,line}]); it is no problem
and changes no exit code.
Read-only: it never writes, breaks or sweeps anything, creates no folder (an
estate that does not exist is an error), and a held lock is never broken for
its age. A lock's age is the time since the later of its acquiredAt and its
file time, never below 0.

Output: one line a problem, a held lock's with what decided its holder's state
(--json: {"problems":[...]} with values whole, the holder's "evidence" where
there is one, and a "command" that names --home when the estate is not the
default;
--hook-envelope: {"ok":bool,"problems":[lines cut at 360 characters]}).

With both --json and --hook-envelope, --hook-envelope wins: the envelope is
printed (exit 0), not the --json object.

Exit codes: 0 no problem; 1 usage or bad input (a bad agent name or one
spelled otherwise on disk on a volume that ignores case, no estate
at --home, an agent named that has no folder in the estate: nothing recorded
for it, mistyped?); 2 problems found.
With --hook-envelope always 0: a usage error is a line in the envelope.

Example:
  pa board check --agent demo`
}

// kindOutside is the kind of problem, in --json, of an agent folder that
// leads out of the estate (a symbolic link to outside it): pa reads nothing
// there, so nothing else of that agent is checked.
const kindOutside dispatch.Kind = "outside-estate"

// jsonProblem is one problem in --json: the problem's data, then the
// command that clears it (problemCommand) and its line.
type jsonProblem struct {
	dispatch.Problem
	Command string `json:"command,omitempty"`
	Line    string `json:"line"`
}

// Run checks one agent, or every agent of the estate.
func (c *checkCmd) Run(ctx context.Context, g *globals, out *output) error {
	var lines []string
	var problems []jsonProblem
	var notes []incidentNote
	err := c.validate()
	if err == nil {
		lines, problems, notes, err = c.check(g)
	}
	if c.HookEnvelope {
		if err != nil {
			// Even a usage error is reported inside the envelope: a hook
			// always gets one JSON object and exit 0.
			lines = append(lines, "pa: "+oneLine(plainError("", err)))
		}
		return writeEnvelope(out.stdout, lines)
	}
	if err != nil {
		return err
	}
	if c.JSON {
		fmt.Fprintf(out.stdout, "%s\n", marshalJSON(map[string]any{"problems": problems, "incidents": notes}))
	} else {
		for _, l := range lines {
			fmt.Fprintln(out.stdout, l)
		}
		for _, n := range notes {
			fmt.Fprintln(out.stdout, n.Line)
		}
	}
	if len(lines) > 0 {
		return &exitError{code: exitProblem}
	}
	return nil
}

// validate checks the flags before anything is opened (the agent's name
// next, in openAgents).
func (c *checkCmd) validate() error {
	if c.StaleWindow <= 0 {
		return fail(exitUsage, "--stale-window %s: want a duration above 0", c.StaleWindow)
	}
	return nil
}

// check runs dispatch.Check on each agent, and reads the incident logs
// of their locks for the rows of the last stale window (incidentNotes).
func (c *checkCmd) check(g *globals) ([]string, []jsonProblem, []incidentNote, error) {
	lines, problems := []string{}, []jsonProblem{}
	// No agentFolder: an agent folder that is no folder is a problem here.
	fsys, closeFS, agents, err := g.openAgents(c.Agent, false)
	if err != nil {
		return lines, problems, nil, err
	}
	defer closeFS()
	if c.Agent == "" {
		if agents, err = withAgentFiles(fsys, agents); err != nil {
			return lines, problems, nil, err
		}
	}
	for _, agent := range agents {
		ps, err := c.checkOne(fsys, g, agent)
		if err != nil {
			return lines, problems, nil, err
		}
		for _, p := range ps {
			lines = append(lines, p.Line)
			problems = append(problems, p)
		}
	}
	return lines, problems, incidentNotes(fsys, g.home, agents, c.StaleWindow, time.Now()), nil
}

// checkOne checks one agent of fsys: its problems, each with its line, or
// an error that is bad input (exit 1): a bad agent name, or with --agent a
// folder leading out of the estate. Any other error reading the agent's
// files is one of its problems (dispatch.UnreadableProblem, exit 2), like a
// file that does not parse, so that the other agents go on.
func (c *checkCmd) checkOne(fsys vfs.FS, g *globals, agent string) ([]jsonProblem, error) {
	// Each problem's command, in its line and in the --json "command",
	// names --home outside the default estate (see problemLine).
	ps, err := dispatch.Check(fsys, agent, dispatch.CheckOptions{StaleWindow: c.StaleWindow})
	var pe *fs.PathError
	switch {
	case c.Agent == "" && osfs.IsEscape(err) && errors.As(err, &pe):
		// An agent folder leading out of the estate, met among every
		// agent: a problem of the estate (with --agent it is bad input,
		// exit 1).
		line := plainError(agent, err)
		return []jsonProblem{{Problem: dispatch.Problem{Kind: kindOutside, Agent: agent, Path: pe.Path,
			Err: "leads out of the estate (a symbolic link to outside it?)"}, Line: line}}, nil
	case errors.Is(err, estate.ErrInvalidAgent) || osfs.IsEscape(err):
		return nil, err
	case err != nil:
		ps = append(ps, dispatch.UnreadableProblem(fsys, agent, err))
	}
	out := make([]jsonProblem, 0, len(ps))
	for _, p := range ps {
		c := clearingOf(fsys, p)
		out = append(out, jsonProblem{Problem: p, Command: problemCommandAs(g.home, p, c), Line: problemLineAs(g.home, p, c)})
	}
	return out, nil
}

// withAgentFiles is agents (every agent, agentsOf) and, in name order among
// them, every name under agents/ that an agent could have but that is no
// folder and no symbolic link (a regular file, a named pipe): dispatch.Check
// reports each as a file where an agent's folder should be, as board check
// --agent does, so that every agent's check does not say ok over it.
func withAgentFiles(fsys vfs.FS, agents []string) ([]string, error) {
	entries, err := fsys.ReadDir(estate.AgentsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return agents, nil
	}
	if err != nil {
		return nil, err
	}
	added := false
	for _, e := range entries {
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 || estate.ValidateAgent(e.Name()) != nil {
			continue
		}
		agents, added = append(agents, e.Name()), true
	}
	if added {
		slices.Sort(agents)
	}
	return agents, nil
}
