package dispatch

import (
	"errors"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/filekind"
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
	// KindListedTwice: the spawn-log or the board is listed more than once
	// in its folder, a copy under each entry: a power cut inside an exFAT
	// rename over it. A lookup finds one copy; the next hold of the
	// spawn-log lock keeps that copy of the spawn-log and removes its other
	// entries before it reads it, the next board write removes the
	// board's before its rename (the next `pa dispatch open` does both)
	// (docs/spawn-log-lock.md, "A power cut").
	KindListedTwice Kind = "listed-twice"
	// KindBehindBoard: the board lists a dispatch id the spawn-log has not
	// given yet (its next id is that id or below): the spawn-log's records
	// were lost, or it was put back from an older copy. `pa dispatch open`
	// refuses there, writing nothing (board.AheadError), until the
	// spawn-log is put back or the board moved aside.
	KindBehindBoard Kind = "behind-board"
)

// Problem is one finding of [Check], as data: its fields keep values whole
// (the lock path, the holder's hostname); the words an operator reads, and
// the command to paste, are the caller's to make of them (cmd/pa).
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
	// DispatchID is the dispatch not on the board (not-on-board), or the
	// highest the board lists (behind-board).
	DispatchID int `json:"dispatchId,omitempty"`
	// NextID is the id the spawn-log would give next (behind-board only).
	NextID int `json:"nextId,omitempty"`
	// Times is how many entries of Path its folder lists (listed-twice
	// only).
	Times int `json:"times,omitempty"`
	// Err says in plain words what is wrong (corrupt and unreadable only).
	Err string `json:"error,omitempty"`
	// StaleWindow is the window the lock was held past (lock-held only).
	StaleWindow time.Duration `json:"-"`
	// Lock is the lock as read, whole (locking.Holder): for lock-held, and
	// for unreadable when the lock name holds no regular file (Lock.Mode
	// not 0: a directory, a symbolic link, a named pipe, a socket, a
	// device); zero otherwise.
	Lock locking.Holder `json:"-"`
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
	// LockID is the record's lock_id, the lock's stable hashed id
	// (policy.LockID); it and the three fields below are the holder's
	// public-safe fields (locking.Holder's), each left out when not
	// recorded (a lock of an earlier pa, of the spec's four fields).
	LockID string `json:"lockId,omitempty"`
	// Agent is the holder's agent label, as recorded.
	Agent string `json:"agent,omitempty"`
	// Operation is the holder's operation ("dispatch open", "board
	// repair"), as recorded.
	Operation string `json:"operation,omitempty"`
	// Policy is the holder's acquisition policy ("mutation", "monitor",
	// "single_flight"), as recorded.
	Policy string `json:"policy,omitempty"`
}

// HolderOf is h as `pa board check --json` shows it: values whole, the
// age in milliseconds.
func HolderOf(h locking.Holder) *Holder {
	return &Holder{
		PID: h.PID, Hostname: h.Hostname, State: h.State.String(), Evidence: h.Evidence,
		AgeMs: h.Age.Milliseconds(), AcquiredAt: h.AcquiredAt,
		LockID: h.LockID, Agent: h.Agent, Operation: h.Operation, Policy: h.Policy,
	}
}

// DefaultStaleWindow is the spec's LOCK_STALE_AFTER_MS: how old a held
// lock must be before [Check] reports it. No break and no sweep of the lock
// reads it: age never breaks a lock.
const DefaultStaleWindow = 60 * time.Second

// CheckOptions are the options of [Check].
type CheckOptions struct {
	// Lock are the lock's seams Check reads with: Host (liveness of the
	// holder) and Now (its age). Nothing else of it is used.
	Lock locking.Options
	// StaleWindow is how long a lock may be held before it is reported:
	// zero means [DefaultStaleWindow] (60 s).
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
}

// Check reports agent's problems (spec: pa board check): a spawn-log lock
// held longer than the stale window (by its age, from the later of
// acquiredAt and the file time), every dispatch of the spawn-log not on the
// board, a spawn-log or board that does not parse, and a lock, spawn-log or
// board that cannot be read as a file (a directory, a named pipe, no
// permission: [KindUnreadable]; a lock name that holds no regular file is
// reported at once, whatever its age); and what a power cut can leave: a
// spawn-log or board its folder lists twice ([KindListedTwice]), a board
// ahead of its spawn-log ([KindBehindBoard]). It is read-only: it never
// writes, breaks or sweeps.
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
// reported. Errors: an *estate.AgentError; an *estate.SpellingError for a
// name whose folder the volume lists under another spelling (agents/Log for
// log on a volume that ignores case: the check would report Log's files as
// log's); any other error of the FS (a
// name leading out of the estate, say), which callers may report with
// [UnreadableProblem].
func Check(fsys vfs.FS, agent string, opts CheckOptions) ([]Problem, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return nil, err
	}
	if err := estate.CheckSpelling(fsys, agent); err != nil {
		return nil, err
	}
	stale := opts.StaleWindow
	if stale <= 0 {
		stale = DefaultStaleWindow
	}
	if fi, err := fsys.Stat(estate.AgentDir(agent)); err == nil && !fi.IsDir() {
		// One problem, not one for each file that cannot be read under it.
		return []Problem{{Kind: KindUnreadable, Agent: agent, Path: estate.AgentDir(agent),
			Err: "it is " + filekind.Any(fi.Mode()) + ", not an agent's folder"}}, nil
	}
	problems := listedTwice(fsys, agent)
	logName := estate.SpawnLogPath(agent)
	h, err := locking.Inspect(fsys, logName, opts.Lock)
	switch {
	case err == nil && h.Mode != 0:
		// Not a regular file: no writer's lock, reported at once, whatever
		// its age (no writer can get past it).
		problems = append(problems, notALock(agent, locking.LockName(logName), h))
	case err == nil && h.Age > stale:
		problems = append(problems, Problem{
			Kind: KindLockHeld, Agent: agent, Path: locking.LockName(logName), LockPath: locking.LockName(logName),
			Holder:      HolderOf(h),
			StaleWindow: stale, Lock: h,
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
	if top := maxDispatch(b); top >= log.NextID {
		problems = append(problems, Problem{Kind: KindBehindBoard, Agent: agent, Path: estate.BoardPath(agent), DispatchID: top, NextID: log.NextID})
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
