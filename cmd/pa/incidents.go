package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// incidentsCmd is `pa dispatch incidents`.
type incidentsCmd struct {
	Agent string        `help:"List this agent's spawn-log lock incidents only (default: every agent)." env:"PA_AGENT" predictor:"agent" placeholder:"NAME" type:"needed"`
	Since time.Duration `help:"Only the rows of the last DURATION (0, the default: every row)." placeholder:"DURATION"`
	JSON  bool          `name:"json" help:"Print the rows as one JSON array."`
}

// Help is the command's long help.
func (c *incidentsCmd) Help() string {
	return `Reads each spawn-log lock's incident log (agents/<agent>/spawn-log.json.lock.incidents.jsonl,
without the lock) and prints its rows, oldest first and newest last, one a
line, tab-separated: time, agent, event (timeout: a writer gave up waiting;
break: a writer broke the lock of a provably dead holder; force: pa dispatch
unlock --force removed a lock), the holder (pid, host, state and evidence),
the process that waited, broke or forced (pid, host), the wait in ms, and
what to do next. Every value is shown as pa dispatch list shows one
(Go-quoted when it holds a control, escape or bidirectional character).
--json prints the rows as one JSON array, each row's fields whole with its
"agent". A line of the log that is no row (torn, too long, not JSON) is
skipped and counted on stderr; a log longer than its cap (1 MiB and a row)
is read from its end, so that its newest rows are the ones listed, and
stderr says so; a log at its cap takes no new rows (they are dropped), and
stderr says that too, naming the log to move aside. Without --agent, an agent whose incident log cannot be read
(not a file) is named on stderr and the other agents go on. Writes nothing.

Exit codes: 0 listed (none is no error); 1 usage or bad input (a bad agent
name, no estate at --home, an agent with no folder, a negative --since, the
incident log of --agent that is not a file); 2 some agent's incident log could
not be read (the other agents' rows are listed).

Example:
  pa dispatch incidents --agent demo --since 24h`
}

// incidentRow is one row of the listing: the row and its agent.
type incidentRow struct {
	Agent string `json:"agent"`
	locking.Incident
}

// Run lists the rows.
func (c *incidentsCmd) Run(ctx context.Context, g *globals, out *output) error {
	if c.Since < 0 {
		return fail(exitUsage, "--since %s: want a duration of 0 (every row) or more", c.Since)
	}
	fsys, closeFS, agents, err := g.openAgents(c.Agent, true)
	if err != nil {
		return err
	}
	defer closeFS()
	var from time.Time
	if c.Since > 0 {
		from = time.Now().Add(-c.Since)
	}
	got := readIncidents(fsys, agents, from)
	if len(got.failed) > 0 && c.Agent != "" {
		return fail(exitUsage, "%s", got.failed[0])
	}
	for _, f := range got.failed {
		fmt.Fprintf(out.stderr, "pa: %s (the other agents go on)\n", f)
	}
	if got.skipped > 0 {
		fmt.Fprintf(out.stderr, "pa: %s of the incident logs %s no row (torn, too long or not JSON) and %s skipped\n",
			count(got.skipped, "line", "lines"), plural(got.skipped, "was", "were"), plural(got.skipped, "was", "were"))
	}
	for _, a := range got.cut {
		fmt.Fprintf(out.stderr, "pa: the incident log of %s is longer than its cap: only its newest rows were read\n", listValue(a))
	}
	for _, a := range got.full {
		fmt.Fprintf(out.stderr, "pa: the incident log of %s is at its cap (1 MiB): new incidents are dropped, not recorded; move %s aside to record them again\n",
			listValue(a), estate.Display(a, locking.IncidentsName(estate.SpawnLogPath(a))))
	}
	if c.JSON {
		if _, err := fmt.Fprintf(out.stdout, "%s\n", marshalJSON(got.rows)); err != nil {
			return err
		}
	} else {
		for _, r := range got.rows {
			if _, err := fmt.Fprintln(out.stdout, incidentLine(r)); err != nil {
				return err
			}
		}
	}
	if len(got.failed) > 0 {
		return &exitError{code: exitProblem}
	}
	return nil
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// incidentsRead is what readIncidents read of the agents' logs.
type incidentsRead struct {
	rows    []incidentRow
	skipped int      // lines that were no row
	cut     []string // agents whose log was longer than its cap
	full    []string // agents whose log is at its cap: it records no more
	failed  []string // an agent's log that could not be read, as a line
}

// readIncidents reads the incident logs of agents' spawn-log locks: the
// rows at or after from (every row when from is zero; a row whose time
// does not parse only then), oldest first, the lines skipped, and each
// agent's log that could not be read.
func readIncidents(fsys vfs.FS, agents []string, from time.Time) incidentsRead {
	out := incidentsRead{rows: []incidentRow{}}
	for _, agent := range agents {
		got, err := locking.ReadIncidents(fsys, estate.SpawnLogPath(agent))
		if err != nil {
			out.failed = append(out.failed, plainError(agent, err))
			continue
		}
		out.skipped += got.Skipped
		if got.Truncated {
			out.cut = append(out.cut, agent)
		}
		if got.Full {
			out.full = append(out.full, agent)
		}
		for _, r := range got.Rows {
			if t, ok := incidentTime(r); from.IsZero() || ok && !t.Before(from) {
				out.rows = append(out.rows, incidentRow{Agent: agent, Incident: r})
			}
		}
	}
	slices.SortStableFunc(out.rows, func(a, b incidentRow) int {
		ta, _ := incidentTime(a.Incident)
		tb, _ := incidentTime(b.Incident)
		return ta.Compare(tb)
	})
	return out
}

// incidentTime is r's time, and whether it parses.
func incidentTime(r locking.Incident) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, r.Time)
	return t, err == nil
}

// incidentLine is r as the plain listing shows it, every value escaped
// (listValue).
func incidentLine(r incidentRow) string {
	actor := r.By
	if r.Waiter != nil {
		actor = r.Waiter
	}
	return listValue(r.Time) + "\t" + listValue(r.Agent) + "\t" + listValue(r.Event) + "\t" +
		partyText(r.Holder, true) + "\t" + partyText(actor, false) + "\t" +
		strconv.FormatInt(r.WaitedMS, 10) + "\t" + listValue(r.OperatorAction)
}

// partyText is p as a field: "pid N on host H", a holder's state and
// evidence after, each value escaped; "-" when there is none. A holder
// with neither pid nor host (a lock that could not be read) is "no holder
// read" and its state, never "pid 0 on host ".
func partyText(p *locking.IncidentParty, holder bool) string {
	if p == nil {
		return "-"
	}
	s := "pid " + strconv.Itoa(p.PID) + " on host " + listValue(p.Hostname)
	if holder && p.PID == 0 && p.Hostname == "" {
		s = "no holder read"
	}
	if holder && p.State != "" {
		s += " (" + listValue(p.State)
		if p.Evidence != "" {
			s += ": " + listValue(p.Evidence)
		}
		s += ")"
	}
	return s
}
