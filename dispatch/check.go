package dispatch

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
)

// Kind is what a [Problem] is about.
type Kind string

// The kinds of problem `pa board check` reports.
const (
	// KindLockHeld: the spawn-log lock has been held longer than the stale
	// window (spec: pa board check; row R23). Nothing breaks it for that.
	KindLockHeld Kind = "lock-held"
	// KindNotOnBoard: a dispatch of the spawn-log is not on the board
	// (spec: Hold and commit, the board write; row R24).
	KindNotOnBoard Kind = "not-on-board"
	// KindCorrupt: the spawn-log or the board does not parse; writes to it
	// fail until it is repaired by hand.
	KindCorrupt Kind = "corrupt"
	// KindUnreadable: the lock, the spawn-log or the board cannot be read
	// as a file: not a regular file (a directory, a named pipe, a symbolic
	// link under the lock's name: reported at once, whatever its age), a name on
	// its path that is not a folder, no permission, an I/O error. Nothing
	// else of that file is checked (no not-on-board line without both the
	// spawn-log and the board).
	KindUnreadable Kind = "unreadable"
)

// Problem is one finding of [Check]. Its fields keep values whole (the
// lock path, the holder's hostname); [Problem.Line] shows them capped.
type Problem struct {
	// Kind is what the problem is about.
	Kind Kind `json:"kind"`
	// Agent is the agent, whole.
	Agent string `json:"agent"`
	// Path is the file the problem is about: the lock (lock-held), the
	// board (not-on-board), the file that does not parse (corrupt) or that
	// cannot be read as a file (unreadable).
	Path string `json:"path"`
	// LockPath is the lock's path, whole (lock-held only; the spec's
	// `lockPath`, the same as Path there).
	LockPath string `json:"lockPath,omitempty"`
	// Holder is the lock's holder (lock-held only).
	Holder *Holder `json:"holder,omitempty"`
	// DispatchID is the dispatch not on the board (not-on-board only).
	DispatchID int `json:"dispatchId,omitempty"`
	// Err says in plain words what is wrong (corrupt and unreadable only).
	Err string `json:"error,omitempty"`
	// Command is the one command that clears the problem, with the whole
	// agent name and the estate's --home when it is not the default
	// (lock-held, and unreadable for a lock name holding a symbolic link, a
	// named pipe, a socket or a device, which `pa dispatch unlock --force`
	// removes; never for a directory, which no unlock removes): it works
	// pasted into another shell.
	Command string `json:"command,omitempty"`

	staleWindow time.Duration
	holder      locking.Holder
}

// Holder is a lock's holder as `pa board check --json` shows it: values
// whole, the age in milliseconds.
type Holder struct {
	// PID is the holder's pid (0 for an unreadable lock).
	PID int `json:"pid"`
	// Hostname is the hostname the lock records, whole.
	Hostname string `json:"hostname"`
	// State is locking.State's String: alive, dead, on another host, in
	// another pid namespace of this host, or empty or unreadable.
	State string `json:"state"`
	// Evidence is what decided State (locking.Holder.Evidence, whole):
	// "holds the lock's kernel lock", "pid 4242 is gone"... Left out when
	// there is none (a lock of the spec's four fields, one of another host
	// or another pid namespace that nothing proves dead, or unreadable).
	Evidence string `json:"evidence,omitempty"`
	// AgeMs is the lock's age in milliseconds, from the later of acquiredAt
	// and the file time (spec: The clock).
	AgeMs int64 `json:"ageMs"`
	// AcquiredAt is the lock's acquiredAt as recorded.
	AcquiredAt string `json:"acquiredAt"`
}

// CheckOptions are the options of [Check].
type CheckOptions struct {
	// Lock are the lock's seams Check reads with: Host (liveness of the
	// holder) and Now (its age). Nothing else of it is used.
	Lock locking.Options
	// StaleWindow is how long a lock may be held before it is reported:
	// zero means locking.DefaultStaleWindow (60 s).
	StaleWindow time.Duration
	// InFlightGrace is how long Check waits, at most, when a dispatch of
	// the spawn-log is not on the board and the spawn-log lock is held by
	// a holder alive on this host, on another host or in another pid
	// namespace of this host, which may be the writer of that dispatch
	// between its commit and its board write: until
	// that hold is gone, then the board is read again and only the
	// dispatches still missing are reported. Zero means
	// DefaultInFlightGrace (1 s); a negative value, no wait (the board is
	// still read again once). A lock that is free, dead or unreadable is
	// never waited for.
	InFlightGrace time.Duration
	// Home is the estate's folder as the commands a problem names should
	// give it (absolute), or "" for the default estate (~/.pa): see
	// [Program].
	Home string
}

// Check reports agent's problems (spec: pa board check): a spawn-log lock
// held longer than the stale window (by its age, from the later of
// acquiredAt and the file time), every dispatch of the spawn-log not on the
// board, a spawn-log or board that does not parse, and a lock, spawn-log or
// board that cannot be read as a file (a directory, a named pipe, no
// permission: [KindUnreadable]; a lock name that holds no regular file is
// reported at once, whatever its age). It is read-only: it never writes,
// breaks or sweeps.
//
// The spawn-log is read once, then the board. A dispatch missing from that
// board is not reported at once: `pa dispatch open` commits its record
// before it writes its board item, both under the lock, so the check may
// have read the board between the two. When the lock is then held by a
// holder alive on this host, on another host or in another pid namespace
// of this host (which nothing proves dead), Check waits until that
// hold is gone, up to opts.InFlightGrace (1 s by default; polling the lock
// every 5 ms); when it is free, dead or unreadable it does not wait. Either
// way it reads the board again and reports only the dispatches still
// missing: a dispatch whose writer is still writing it past the grace, or
// whose writer died or lost its lock before its board write (row R24), is
// reported. Errors: an *estate.AgentError; any other error of the FS (a
// name leading out of the estate, say), which callers may report with
// [UnreadableProblem].
func Check(fsys vfs.FS, agent string, opts CheckOptions) ([]Problem, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return nil, err
	}
	stale := opts.StaleWindow
	if stale <= 0 {
		stale = locking.DefaultStaleWindow
	}
	if fi, err := fsys.Stat(estate.AgentDir(agent)); err == nil && !fi.IsDir() {
		// One problem, not one for each file that cannot be read under it.
		return []Problem{{Kind: KindUnreadable, Agent: agent, Path: estate.AgentDir(agent),
			Err: "it is " + filekind.Any(fi.Mode()) + ", not an agent's folder"}}, nil
	}
	var problems []Problem
	logName := estate.SpawnLogPath(agent)
	h, err := locking.Inspect(fsys, logName, opts.Lock)
	switch {
	case err == nil && h.Mode != 0:
		// Not a regular file: no writer's lock, reported at once, whatever
		// its age (no writer can get past it).
		problems = append(problems, notALock(opts.Home, agent, locking.LockName(logName), h))
	case err == nil && h.Age > stale:
		problems = append(problems, Problem{
			Kind: KindLockHeld, Agent: agent, Path: locking.LockName(logName), LockPath: locking.LockName(logName),
			Holder: &Holder{
				PID: h.PID, Hostname: h.Hostname, State: h.State.String(), Evidence: h.Evidence,
				AgeMs: h.Age.Milliseconds(), AcquiredAt: h.AcquiredAt,
			},
			Command:     UnlockCommand(opts.Home, agent, h),
			staleWindow: stale, holder: h,
		})
	case unreadable(err):
		problems = append(problems, UnreadableProblem(fsys, agent, err))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	log, err := spawnlog.Read(fsys, agent)
	if err != nil {
		return corrupt(fsys, problems, agent, err)
	}
	b, err := board.Read(fsys, agent)
	if err != nil {
		return corrupt(fsys, problems, agent, err)
	}
	missing := notOnBoard(log.Records, b)
	if len(missing) == 0 {
		return problems, nil
	}
	// A dispatch whose writer committed it and is still writing its board
	// item is not missing: wait for that writer's release (a bounded
	// grace), then read the board again (never the spawn-log: a record
	// committed since is not looked at).
	grace := opts.InFlightGrace
	if grace == 0 {
		grace = DefaultInFlightGrace
	}
	waitInFlight(fsys, logName, opts.Lock, grace)
	if b, err = board.Read(fsys, agent); err != nil {
		return corrupt(fsys, problems, agent, err)
	}
	for _, r := range notOnBoard(missing, b) {
		problems = append(problems, Problem{Kind: KindNotOnBoard, Agent: agent, Path: estate.BoardPath(agent), DispatchID: r.ID})
	}
	return problems, nil
}

// notOnBoard returns the records whose dispatch is not on b, in order.
func notOnBoard(records []spawnlog.Record, b board.Board) []spawnlog.Record {
	// One set of the board's ids, so the check is linear in the records
	// and items, not their product.
	onBoard := make(map[int]struct{}, len(b.Items))
	for _, it := range b.Items {
		onBoard[it.DispatchID] = struct{}{}
	}
	var missing []spawnlog.Record
	for _, r := range records {
		if _, ok := onBoard[r.ID]; !ok {
			missing = append(missing, r)
		}
	}
	return missing
}

// corrupt adds a corrupt problem for err when it is a parse error, an
// unreadable one when the file cannot be read as one (unreadable), and
// returns any other error.
func corrupt(fsys vfs.FS, problems []Problem, agent string, err error) ([]Problem, error) {
	var sc *spawnlog.CorruptError
	var bc *board.CorruptError
	switch {
	case errors.As(err, &sc):
		return append(problems, Problem{Kind: KindCorrupt, Agent: agent, Path: sc.Path, Err: sc.Reason()}), nil
	case errors.As(err, &bc):
		return append(problems, Problem{Kind: KindCorrupt, Agent: agent, Path: bc.Path, Err: bc.Reason()}), nil
	case unreadable(err):
		return append(problems, UnreadableProblem(fsys, agent, err)), nil
	}
	return problems, err
}

// UnlockCommand is the one command that clears a lock of agent held by h
// in the estate home ("" for the default, see [Program]), with the whole
// agent name, shell-quoted when it needs it: `pa dispatch unlock --agent
// NAME` for a provably dead holder, `pa dispatch unlock --force --agent
// NAME` for any other (spec: Unlock); `pa --home DIR dispatch unlock ...`
// in an estate that is not the default.
func UnlockCommand(home, agent string, h locking.Holder) string {
	flag := AgentFlag(agent)
	if h.State == locking.StateDead {
		return Program(home) + " dispatch unlock " + flag
	}
	return Program(home) + " dispatch unlock --force " + flag
}

// ForceWhen is the spec's sentence on when --force is right.
const ForceWhen = "only once the holder's process is gone or stuck, never while it still runs"

// Line is the problem as one line for an operator or a hook, every value
// read from disk escaped and capped for display. A lock-held line leads with
// `pa dispatch unlock` and the holder's pid, then its host, state and what
// decided it (the evidence), age and acquiredAt, and for a holder not
// provably dead when to use --force; it is at most 362 characters, and
// below 360 for a dead holder, whatever the agent and host (spec: pa board
// check), so the envelope's 360-character cut can drop only the end of its
// --force sentence: where the worst values leave no room for the whole
// evidence, it is cut to fit (the --json "evidence" keeps it whole).
//
// The line never names the estate's --home, even when it is not the
// default: `pa --home DIR dispatch unlock` would no longer lead with `pa
// dispatch unlock`, and DIR is a path of any length, so the line would no
// longer be bounded and the envelope's cut could drop more than the end of
// the --force sentence. The whole command, --home included, is in
// [Problem.Command] (the --json "command" field); the plain line is read by
// the operator who ran the check, in the estate they named.
func (p Problem) Line() string {
	switch p.Kind {
	case KindLockHeld:
		if p.holder.State == locking.StateUnreadable {
			// No pid to lead with: the lock itself is the subject.
			return fmt.Sprintf("pa dispatch unlock: %s is %s, older than the %s stale window; use --force %s",
				estate.Display(p.Agent, p.Path), p.holder.Describe(), FormatWindow(p.staleWindow), ForceWhen)
		}
		line := p.heldLine(p.holder)
		if over := utf8.RuneCountInString(line) - maxHeldLine; over > 0 && p.holder.Evidence != "" {
			// The evidence is what may not fit beside the worst values
			// (capped names, a hostile acquiredAt, the longest window):
			// cut to fit; --json "evidence" keeps it whole.
			h := p.holder
			h.Evidence = cutRunes(h.Evidence, over)
			line = p.heldLine(h)
		}
		return line
	case KindNotOnBoard:
		return fmt.Sprintf("dispatch %d is in %s but not on the board %s",
			p.DispatchID, estate.Display(p.Agent, estate.SpawnLogPath(p.Agent)), estate.Display(p.Agent, p.Path))
	case KindCorrupt:
		return fmt.Sprintf("%s does not parse: %s", estate.Display(p.Agent, p.Path), termsafe.Escape(p.Err))
	case KindUnreadable:
		if p.holder.Mode != 0 {
			return notALockLine(p)
		}
		return fmt.Sprintf("%s cannot be read: %s; look at it and fix or move it by hand", estate.Display(p.Agent, p.Path), termsafe.Escape(p.Err))
	}
	return string(p.Kind)
}

// heldLine is the lock-held line of p for its lock's holder h.
func (p Problem) heldLine(h locking.Holder) string {
	line := fmt.Sprintf("pa dispatch unlock: %s has held %s past the %s stale window",
		h.Describe(), estate.Display(p.Agent, p.Path), FormatWindow(p.staleWindow))
	if h.State != locking.StateDead {
		line += "; use --force " + ForceWhen
	}
	return line
}

// maxHeldLine is the spec's bound on the lock-held line (spec: pa board
// check), so that the envelope's cut at 360 can drop only the end of its
// --force sentence. A provably dead holder's line, which has no --force
// sentence, stays below 360 whatever its evidence (the longest, a reused
// pid's with two 20-digit start times, about 350 with the worst values).
const maxHeldLine = 362

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

// FormatWindow prints a stale window for a line: in whole seconds from a
// second up (60s, as --help gives the default and the spec its 60 s, 90s,
// 3600s; never 1m0s), exactly below (500ms, 1.5ms, 1ns), so a tiny window
// never reads "0s".
func FormatWindow(d time.Duration) string {
	if d < time.Second {
		return d.String()
	}
	return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10) + "s"
}
