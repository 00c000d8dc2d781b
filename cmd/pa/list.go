package main

import (
	"context"
	"fmt"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// listCmd is `pa dispatch list`.
type listCmd struct {
	Agent string `help:"List this agent's dispatches only (default: every agent)." env:"PA_AGENT" predictor:"agent" placeholder:"NAME" type:"needed"`
	JSON  bool   `name:"json" help:"Print the records as one JSON array."`
}

// Help is the command's long help.
func (c *listCmd) Help() string {
	return `Reads the spawn-logs (without the lock: a commit is a rename, so a reader sees
one whole version) and prints one dispatch a line, tab-separated:
agent, id, openedAt, title, each as it is; a value holding a control,
escape, DEL, C1 or bidirectional character (or not UTF-8), or itself in
double quotes, is shown Go-quoted ("a\tb", "\x1b[31m", with \" and \\).
--json prints the records as one JSON array (values whole; control and
bidirectional characters written as \uXXXX). Writes nothing and creates no
folder: an estate that does not exist is an error.

Exit codes: 0 listed; 1 usage or bad input (a bad agent name or one spelled
otherwise on disk on a volume that ignores case, no estate at
--home, an agent named that has no folder in the estate (nothing recorded
for it: mistyped?), a spawn-log that does not parse, an agent folder that is a symbolic
link out of the estate: nothing is listed then).

Example:
  pa dispatch list --agent demo`
}

// Run lists the records.
func (c *listCmd) Run(ctx context.Context, g *globals, out *output) error {
	fsys, closeFS, agents, err := g.openAgents(c.Agent, true)
	if err != nil {
		return err
	}
	defer closeFS()
	records := []spawnlog.Record{}
	for _, agent := range agents {
		log, err := spawnlog.Read(fsys, agent)
		if err != nil && dispatch.IsUnreadable(err) && !osfs.IsEscape(err) {
			// A directory in its place, say: in board check's words.
			return fail(exitUsage, "%s", problemLine(g.home, dispatch.UnreadableProblem(fsys, agent, err)))
		}
		if err != nil {
			return fail(exitUsage, "%s", plainError(agent, err))
		}
		records = append(records, log.Records...)
	}
	if c.JSON {
		_, err := fmt.Fprintf(out.stdout, "%s\n", marshalJSON(records))
		return err
	}
	for _, r := range records {
		if _, err := fmt.Fprintf(out.stdout, "%s\t%d\t%s\t%s\n", listValue(r.Agent), r.ID,
			listValue(r.OpenedAt), listValue(r.Title)); err != nil {
			return err
		}
	}
	return nil
}
