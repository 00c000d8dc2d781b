package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"
	"unicode/utf8"

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

// openCmd is `pa dispatch open`.
type openCmd struct {
	Agent string `help:"The agent (one safe folder name)." env:"PA_AGENT" predictor:"agent" required:"" placeholder:"NAME" type:"needed"`
	Title string `help:"The dispatch's title." placeholder:"T" type:"needed"`
	JSON  bool   `name:"json" help:"Print the whole record as JSON instead of the id alone, and an error as one JSON object on stderr."`
	// Policy is how a held lock is met (locking/policy, the kernel-lock
	// design's acquisition policies).
	Policy string `help:"How a held lock is met: mutation (wait up to --wait, then fail naming the holder), monitor (the same, --wait 1s by default, for a caller that tries again on its own schedule), single-flight (no wait: a live holder means a dispatch is already being opened; exit 3, nothing recorded)." enum:"mutation,monitor,single-flight" default:"mutation" placeholder:"POLICY"`
	// Wait is --wait, nil when not given (its default is the policy's).
	Wait *time.Duration `help:"How long to wait for a held lock (0: fail at once; default 10s, 1s with --policy monitor; not with single-flight)." placeholder:"DURATION" type:"wait"`
}

// The defaults of --wait by policy: the spec's 10 s for mutation (the
// fail-safe lock's), the design's 1 s for monitor.
var openDeadlines = policy.Deadlines{Mutation: 10 * time.Second, Monitor: time.Second}

// policy returns --policy's value and the wait it gives: --wait where
// given, else the policy's default; a usage error for --wait with
// single-flight, which never waits.
func (c *openCmd) policyAndWait() (policy.Policy, time.Duration, error) {
	p, err := policy.Parse(c.Policy)
	if err != nil {
		return 0, 0, fail(exitUsage, "--policy %s", termsafe.Escape(err.Error()))
	}
	switch {
	case c.Wait != nil && p == policy.SingleFlight:
		return 0, 0, fail(exitUsage, "--wait does not go with --policy single-flight, which never waits; nothing was written")
	case c.Wait != nil:
		return p, *c.Wait, nil
	}
	return p, openDeadlines.Of(p), nil
}

// Help is the command's long help.
func (c *openCmd) Help() string {
	return `Appends a record to agents/<agent>/spawn-log.json under the spawn-log lock,
with a fresh id, and puts the dispatch on agents/<agent>/board/board.json while
the lock is still held. Prints the new id alone on stdout (--json: the record).
Creates the estate's folder when it is missing (the only command that does).

A lock held by a live process is never broken: after --wait, open fails with
one line naming the holder and the pa dispatch unlock command that clears it
(with --home when the estate is not the default). Ctrl-C (or SIGTERM) while it
waits ends it with exit 2, writing nothing. On a terminal, once it has waited
about a second, it says so on stderr in one line: the holder and until when.
A lock whose holder is provably dead is broken at once, and one line on stderr
names it and what proved its holder dead. --json prints neither line.

--policy is how a held lock is met: mutation (the default) waits up to --wait
(10s); monitor the same, with --wait 1s unless given; single-flight never
waits: with the lock held by a live holder it records nothing and exits 3,
saying so in one line (with --json, {"recorded":false,"error_code":"lock_held",
...} on stdout).

With --json every error is one JSON object on stderr instead of its line,
the exit code the same: {"error_code":...,"message":...,"lock":...,
"holder":{"pid":...,"hostname":...,"state":...,"evidence":...,"ageMs":...,
"acquiredAt":...} or null,"waited_ms":...}, "dispatch_id" too when the
dispatch was recorded. The codes are listed in docs/cli.md.

Exit codes: 0 recorded; 1 usage or bad input (a bad agent name or one spelled
otherwise on disk on a volume that ignores case, a title that
is not valid UTF-8, a spawn-log or board that does not parse, a board that
already lists the id the spawn-log would give: nothing is written); 2 the lock is held, the wait
was interrupted or a file operation of the lock failed (nothing is written),
a rename or remove was refused because the file is another user's (the lock,
or the spawn-log the commit replaces: the line names the file and its owner,
nothing is written), or the lock was lost before the board write or the board write failed (the
record is in the spawn-log, the line names its id and the pa board repair
command that puts it on the board); 3 --policy single-flight found the lock held
(nothing is written). Each exit-2 line leads with the lock and its holder's
pid, or says there is none, and names one command.

Example:
  pa dispatch open --agent demo --title "first dispatch"`
}

// Run records the dispatch. With --json, its error is one JSON object on
// stderr (openJSONError), its exit code the same.
func (c *openCmd) Run(ctx context.Context, g *globals, out *output) error {
	var f openFailure
	err := c.open(ctx, g, out, &f)
	var ee *exitError
	if errors.As(err, &ee) && ee.msg == "" {
		return err // no line: already said (single-flight's object)
	}
	if err != nil && c.JSON {
		return f.writeJSON(out.stderr, c.Agent, err)
	}
	return err
}

// open is Run; a failure of dispatch.Open is observed in f.
func (c *openCmd) open(ctx context.Context, g *globals, out *output, f *openFailure) error {
	// The agent's name is said before the title (openLocked checks it
	// again).
	if err := checkAgent(c.Agent); err != nil {
		return err
	}
	if !utf8.ValidString(c.Title) {
		return titleNotUTF8()
	}
	pol, wait, err := c.policyAndWait()
	if err != nil {
		return err
	}
	opts, fsys, closeFS, _, err := g.openLocked(c.Agent, wait, true)
	if err != nil {
		return err
	}
	defer closeFS()
	opts = withLabels(opts, c.Agent, operationOpen, pol)

	// The wait line (on a terminal) and the break line, on stderr; none
	// with --json, and none once Open has returned.
	events := &lockEvents{stderr: out.stderr, a: g.adviceFor(c.Agent, fsys)}
	if !c.JSON {
		events.observe(&opts, isTerminal(out.stderr))
	}
	start := time.Now()
	rec, err := dispatch.Open(ctx, fsys, c.Agent, c.Title, opts)
	events.end()
	if err != nil {
		f.observe(fsys, c.Agent, opts, err, time.Since(start), rec.ID)
		if held, ok := singleFlightHeld(pol, err); ok {
			return c.alreadyOpening(out, g.adviceFor(c.Agent, fsys), held)
		}
		return openError(fsys, g.adviceFor(c.Agent, fsys), wait, rec, err, opts)
	}
	if c.JSON {
		_, err = fmt.Fprintf(out.stdout, "%s\n", marshalJSON(rec))
		return err
	}
	_, err = fmt.Fprintf(out.stdout, "%d\n", rec.ID)
	return err
}

// titleNotUTF8 is the usage error of a --title that is not valid UTF-8
// (spawnlog.ErrTitleNotUTF8): refused before the estate is opened, so
// nothing is created or written.
func titleNotUTF8() error {
	return fail(exitUsage, "--title is not valid UTF-8: a spawn-log is JSON, which cannot hold those bytes as they are; nothing was written")
}

// openError turns an error of dispatch.Open into pa's line and exit
// code: 2 for the lock (held, lost, the wait interrupted, a file operation
// of the lock that failed) and for a dispatch recorded but not on its board
// or not synced (the line names its id: row R24), 1 for bad input. Every
// exit-2 line leads with the lock and its holder's pid (the holder the
// error carries, else the lock as read now: lockNow) and names one command.
func openError(fsys vfs.FS, a advice, wait time.Duration, rec spawnlog.Record, err error, opts locking.Options) error {
	agent := a.agent
	var nb *dispatch.NotOnBoardError
	var ns *locking.NotSyncedError
	refused, byOwner := refusedByOwner(fsys, agent, err)
	switch {
	case errors.As(err, &ns) && rec.ID != 0:
		// Landed: the operator must not open it again.
		return fail(exitProblem, "%sdispatch %d is recorded, but syncing the folder of %s failed: %s; do not open it again; %s dispatch list %s shows it",
			then(a.now(fsys, opts).lead), rec.ID, estate.Display(agent, ns.Name), reason(agent, ns.Err), a.pa, agentFlag(agent))
	case errors.As(err, &nb) && errors.Is(err, locking.ErrLockLost):
		// Row R24: the fence before the board's rename found the lock
		// taken from this writer; name whoever holds it now.
		return fail(exitProblem, "%sthis writer's lock was lost before the board write: dispatch %d is in the spawn-log but not on the board; put it there with %s",
			then(a.now(fsys, opts).lead), nb.DispatchID, a.repair())
	case errors.As(err, &nb):
		// The board write failed after the commit: only the board is
		// missing it, and repair puts it there (run as the board's owner
		// or root where only they can replace it, a refusal named so).
		why := plainError(agent, nb.Err)
		if r, ok := refusedByOwner(fsys, agent, nb.Err); ok {
			why = r.String()
		}
		return fail(exitProblem, "%sdispatch %d is in %s but not on the board: %s; put it there with %s",
			then(a.now(fsys, opts).lead), nb.DispatchID, estate.Display(agent, estate.SpawnLogPath(agent)), why, a.repair())
	case errors.Is(err, locking.ErrLockLost):
		// Fenced out again and again until the wait ran out: name whoever
		// holds the lock now.
		n := a.now(fsys, opts)
		return fail(exitProblem, "%sthis writer lost its lock and %s; nothing was written; %s",
			then(n.lead), gaveUp(wait, wait), n.or("the lock is free now, try again"))
	case errors.Is(err, context.Canceled):
		// Ctrl-C while waiting: a lock outcome (exit 2), not a usage error.
		n := a.now(fsys, opts)
		return fail(exitProblem, "%sinterrupted while waiting for it: nothing written; %s", then(n.lead), n.or("the lock is free now, try again"))
	case errors.Is(err, spawnlog.ErrTitleNotUTF8):
		return titleNotUTF8()
	case errors.Is(err, spawnlog.ErrCorrupt), errors.Is(err, board.ErrCorrupt), errors.Is(err, estate.ErrInvalidAgent),
		errors.Is(err, spawnlog.ErrNoIDLeft), errors.Is(err, estate.ErrSpelling), errors.Is(err, board.ErrAhead):
		return fail(exitUsage, "%s", plainError(agent, err))
	case byOwner && (!refused.read || refused.ofLock(agent)) && rec.ID == 0:
		// Another user's file (its lock, the spawn-log the commit
		// replaces) in a folder where only its owner or root may move it,
		// or a lock this user may not read; a spawn-log or board this user
		// may not read is bad input, as it was.
		return a.refusedLine(fsys, opts, refused, a.pa+" dispatch open")
	case lockFault(agent, err) && rec.ID != 0:
		// Landed and on its board; only the release failed.
		n := a.now(fsys, opts)
		return fail(exitProblem, "%sdispatch %d is recorded, but releasing the lock failed: %s; do not open it again; %s",
			then(n.lead), rec.ID, reason(agent, err), n.or("the lock is free now"))
	case lockFault(agent, err):
		n := a.now(fsys, opts)
		return fail(exitProblem, "%slock error: %s; nothing was written; %s", then(n.lead), reason(agent, err), n.orTryAgain(err))
	case dispatch.IsUnreadable(err) && !osfs.IsEscape(err):
		// The spawn-log or board cannot be read as a file (a directory in
		// its place, say): bad input, in board check's words.
		return fail(exitUsage, "%s", problemLine(a.home, dispatch.UnreadableProblem(fsys, agent, err)))
	}
	return a.lockError(err, wait)
}

// plainError is err as one line for the operator: a spawn-log or board that
// does not parse as `<file> does not parse: <plain reason>` (the agent in
// the file capped for display), a name that leads out of the estate as
// such, anything else with the characters a terminal must not see raw
// escaped.
func plainError(agent string, err error) string {
	var sc *spawnlog.CorruptError
	var bc *board.CorruptError
	var ae *board.AheadError
	var pe *fs.PathError
	var se *estate.SpellingError
	switch {
	case errors.As(err, &se):
		return spellingLine(se)
	case osfs.IsEscape(err) && errors.As(err, &pe):
		return escaped(pe.Path)
	case errors.As(err, &sc):
		return estate.Display(agent, sc.Path) + " does not parse: " + sc.Reason()
	case errors.As(err, &bc):
		return estate.Display(agent, bc.Path) + " does not parse: " + bc.Reason()
	case errors.As(err, &ae):
		return fmt.Sprintf("%s lists dispatch %d, but the spawn-log's next id is %d: the spawn-log is behind its board (its records were lost, or it is an older copy); nothing was written; put the spawn-log back from a copy, or move the board aside (keep it) to start a new board from the spawn-log",
			estate.Display(agent, ae.Path), ae.MaxID, ae.ID)
	}
	return termsafe.Escape(err.Error())
}

// exitHeld is the exit code of a single-flight open that found the lock
// held by a live holder: an ordinary outcome, nothing recorded.
const exitHeld = 3

// singleFlightHeld reports, for a single-flight open, a timeout on a
// holder that may be at work (alive, on another host, in another pid
// namespace): the design's "someone is already doing it". A lock that
// cannot be read, or one a stuck breaker keeps, is a problem, not that.
func singleFlightHeld(p policy.Policy, err error) (locking.Holder, bool) {
	var te *locking.TimeoutError
	if p != policy.SingleFlight || !errors.As(err, &te) || te.Claim != nil {
		return locking.Holder{}, false
	}
	switch te.Holder.State {
	case locking.StateAlive, locking.StateOtherHost, locking.StateOtherNamespace:
		return te.Holder, true
	}
	return locking.Holder{}, false
}

// alreadyOpening is the single-flight open's outcome with the lock held:
// exit 3, one line on stderr naming the holder and what it is doing (its
// recorded operation: alreadyDoing), or with --json one object on stdout
// that a script tells from a record by its "recorded": false, with the
// fields of open's error object (error_code lock_held, message: the line,
// lock, holder, waited_ms 0) and, as before them, the holder's pid,
// hostname and state at the top level.
func (c *openCmd) alreadyOpening(out *output, a advice, h locking.Holder) error {
	line := fmt.Sprintf("%snot recorded: --policy single-flight, and %s", then(a.held(h)), alreadyDoing(h.Operation))
	if c.JSON {
		fmt.Fprintf(out.stdout, "%s\n", marshalJSON(struct {
			Recorded bool `json:"recorded"`
			openJSONError
			PID      int    `json:"pid"`
			Hostname string `json:"hostname"`
			State    string `json:"state"`
		}{false, openJSONError{ErrorCode: policy.CodeHeld, Message: line, Lock: estate.SpawnLogPath(c.Agent) + ".lock", Holder: dispatch.HolderOf(h)},
			h.PID, h.Hostname, h.State.String()}))
		return &exitError{code: exitHeld} // no line: the object says it
	}
	return fail(exitHeld, "%s", line)
}

// alreadyDoing says what the holder of a lock a single-flight open found
// held is doing, by the operation its record names (a label: letters,
// digits, spaces and ._:@+- only): a dispatch being opened for pa's own
// open and for a record that names none (an earlier pa's, the spec's four
// fields); pa's repair and unlock by name; any other label quoted.
func alreadyDoing(operation string) string {
	switch operation {
	case "", operationOpen:
		return "a dispatch is already being opened"
	case operationRepair:
		return "a board repair holds the lock"
	case operationUnlock:
		return "an unlock holds the lock"
	}
	return fmt.Sprintf("the lock is held for %q", operation)
}
