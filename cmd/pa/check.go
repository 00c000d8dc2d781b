package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/board"
)

// envelopeCut is the longest problem line --hook-envelope carries, in
// characters (spec: pa board check).
const envelopeCut = 360

// checkCmd is `pa board check`.
type checkCmd struct {
	Agent        string        `help:"Check this agent only (default: every agent)." env:"PA_AGENT" placeholder:"NAME"`
	JSON         bool          `name:"json" help:"Print the problems as one JSON object."`
	HookEnvelope bool          `name:"hook-envelope" help:"Print one JSON object {\"ok\":...,\"problems\":[lines]} for a hook, each line cut at 360 characters; always exit 0."`
	StaleWindow  time.Duration `name:"stale-window" help:"Report a lock held longer than this (default ${default})." default:"60s" placeholder:"DURATION"`
}

// Help is the command's long help.
func (c *checkCmd) Help() string {
	return `Reports, for one agent or every agent: a spawn-log lock held longer than the
stale window (60s), with its holder and the pa dispatch unlock command; every
dispatch of the spawn-log that is not on the board; a spawn-log or board that
does not parse. Read-only: it never writes, breaks or sweeps anything, and a
held lock is never broken for its age.

Output: one line a problem (--json: {"problems":[...]} with values whole;
--hook-envelope: {"ok":bool,"problems":[lines cut at 360 characters]}).

Exit codes: 0 no problem; 1 usage or bad input; 2 problems found.
With --hook-envelope always 0.

Example:
  pa board check --agent demo`
}

// jsonProblem is one problem in --json.
type jsonProblem struct {
	board.Problem
	Line string `json:"line"`
}

// Run checks one agent, or every agent of the estate.
func (c *checkCmd) Run(ctx context.Context, g *globals, out *output) error {
	var lines []string
	var problems []jsonProblem
	err := checkAgent(c.Agent)
	if c.Agent == "" || err == nil {
		lines, problems, err = c.check(g)
	}
	if c.HookEnvelope {
		if err != nil {
			// Even a bad agent name is reported inside the envelope: a
			// hook always gets one JSON object and exit 0.
			lines = append(lines, "pa: "+oneLine(err.Error()))
		}
		for i, l := range lines {
			lines[i] = cut(l, envelopeCut)
		}
		b, _ := json.Marshal(map[string]any{"ok": len(lines) == 0, "problems": lines})
		_, werr := fmt.Fprintf(out.stdout, "%s\n", b)
		return werr
	}
	if err != nil {
		return err
	}
	if c.JSON {
		b, _ := json.Marshal(map[string]any{"problems": problems})
		fmt.Fprintf(out.stdout, "%s\n", b)
	} else {
		for _, l := range lines {
			fmt.Fprintln(out.stdout, l)
		}
	}
	if len(lines) > 0 {
		return &exitError{code: exitProblem}
	}
	return nil
}

// check runs board.Check on each agent.
func (c *checkCmd) check(g *globals) ([]string, []jsonProblem, error) {
	lines, problems := []string{}, []jsonProblem{}
	fsys, closeFS, err := g.openEstate()
	if err != nil {
		return lines, problems, err
	}
	defer closeFS()
	agents, err := agentsOf(fsys, c.Agent)
	if err != nil {
		return lines, problems, err
	}
	for _, agent := range agents {
		ps, err := board.Check(fsys, agent, board.CheckOptions{StaleWindow: c.StaleWindow})
		if err != nil {
			return lines, problems, err
		}
		for _, p := range ps {
			lines = append(lines, p.Line())
			problems = append(problems, jsonProblem{Problem: p, Line: p.Line()})
		}
	}
	return lines, problems, nil
}

// cut keeps the first n characters of s.
func cut(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
