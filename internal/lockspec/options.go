package lockspec

import (
	"crypto/rand"
	"io"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// The spec's windows (spec: Guarantees, the paragraph on windows).
const (
	// DefaultTimeout is LOCK_TIMEOUT_MS: how long a writer waits for a held
	// lock before it fails with a *TimeoutError.
	DefaultTimeout = 10 * time.Second
	// DefaultUnlockBusyWait is UNLOCK_BUSY_WAIT_MS: how long [Unlock]
	// without force waits while another breaker's live claim is on the lock.
	DefaultUnlockBusyWait = time.Second
	// DefaultPollInterval is the longest a waiting writer waits before it
	// reads a held lock again (spec: Acquire step 3, "about 10 ms").
	DefaultPollInterval = 10 * time.Millisecond
)

// NoWait as [Options.Timeout] makes a writer fail at once when the lock is
// held by a holder that is not provably dead (`--wait 0`).
const NoWait time.Duration = -1

// Options are the settings of the lock. The zero value is the shipped
// behaviour: the real host, the real clock, crypto/rand, the spec's windows,
// no observer and no step hook. Options are values, never globals: two locks in one
// process may use different ones (tests run several "processes" as
// goroutines, each with its own [Host]). The seams that only this module
// sets (the step hook, the afterWrite, the token source) are unexported,
// set by [SetOnStep], [SetAfterCommit] and [SetRand].
type Options struct {
	// Host is this process's host: its hostname, its pid and the liveness
	// of other pids. Nil means [OSHost].
	Host Host

	// Now stamps acquiredAt and measures the age printed in messages. Nil
	// means time.Now. It never decides a break or a sweep, and the waits
	// (timeout, poll, busy-wait) always run on the real clock.
	Now func() time.Time

	// Timeout is how long Acquire (and Update, from its start) waits for a
	// held lock: zero means DefaultTimeout (10 s), NoWait (or any negative
	// value) means fail at once.
	Timeout time.Duration

	// PollInterval is the longest wait between two reads of a held lock;
	// zero means DefaultPollInterval (10 ms). A release wakes a waiter
	// sooner where the FS can watch for it ([vfs.WatchFS]); without a
	// watch the waits back off from 100 µs up to it. It is also how soon
	// a holder that dies while a writer waits is found and broken.
	PollInterval time.Duration

	// UnlockBusyWait is how long Unlock without force waits while another
	// breaker's live claim is on the lock; zero means DefaultUnlockBusyWait
	// (1 s).
	UnlockBusyWait time.Duration

	// OnWait, when not nil, is told that an acquire waits for a held lock
	// (spec: Acquire step 3): it is called from the acquiring goroutine,
	// just before the wait, once per holder an acquire waits on (other
	// bytes under the lock name are another holder: a new lock, or the
	// same one rewritten), with the lock's name as given to Acquire plus
	// ".lock", its holder as read and judged (never provably dead: that
	// one is broken, not waited on; a dead holder's lock that another
	// breaker's live claim keeps is waited on unreported) and deadline,
	// when the acquire gives up (the real clock; for Update, one Timeout
	// after its start, whatever holds came between). An acquire that does
	// not wait (a free lock, a dead holder broken at once, NoWait) never
	// calls it. It only observes: it must return at once and not use the
	// lock; nothing the lock does depends on it, and nil costs nothing.
	OnWait func(lock string, holder Holder, deadline time.Time)

	// OnBreak, when not nil, is told of the one automatic break (spec: The
	// one automatic break; The steps, Break): it is called from the
	// acquiring goroutine once this acquire has moved and removed the
	// lock of a provably dead holder (break:removed) and its claim, before
	// it publishes again, with the lock's name and the holder as judged
	// (State StateDead, Evidence what proved it, "" for a lock of the
	// spec's four fields: its pid is gone). A break that found the lock
	// changed or gone, another breaker's break and [Unlock] do not call
	// it. It only observes: it must return at once and not use the lock;
	// nil costs nothing.
	OnBreak func(lock string, dead Holder)

	// OnIncidentError, when not nil, is told that the incident row of a
	// break (an acquire's automatic break, EventBreak) or a forced unlock
	// ([Unlock] with force, EventForce) was not appended to the lock's
	// incident log: err is the FS's error, ErrIncidentsFull or
	// ErrIncidentStalled (past IncidentWait). The break or unlock itself is
	// done and stands; only its record is missing. It is called from the
	// acquiring or unlocking goroutine, after OnBreak. A timeout's row has
	// its own report, [TimeoutError]'s Incident. It only observes: it must
	// return at once and not use the lock; nil costs nothing.
	OnIncidentError func(lock, event string, err error)

	// ExclusiveCreate makes a writer on a volume without hard links
	// publish its lock by the spec's exclusive create and write (spec: The
	// steps, Acquire step 2; rows R29, R38, R47 then apply), instead of
	// the directory publish, the default: the record written and synced
	// as <token>.json in a staging directory of the attempt's own, which
	// is renamed to the lock name in one step (docs/spawn-log-lock.md,
	// "The directory publish"). An FS that is an [ExclusiveCreateFS]
	// answering true selects it too. With hard links it changes nothing.
	ExclusiveCreate bool

	// Agent and Operation are the holder's public-safe labels, written in
	// its record beside the lock's id (lock_id) for an operator who finds
	// the lock held: the agent ("demo") and what it does ("dispatch open",
	// "board repair"). Each is at most MaxLabel (64) bytes of letters,
	// digits, spaces and ._:@+- ([ValidLabel]), never a path, an
	// environment variable or a command line; another value makes
	// [Acquire], [Update] and [UpdateMapped] fail with a *[LabelError]
	// before any file is touched. Empty: not recorded (the default).
	Agent, Operation string

	// Policy is the holder's acquisition policy as its record says it:
	// "mutation", "monitor" or "single_flight" (locking/policy's
	// Policy.String), "" not recorded (the default); another value is a
	// *[LabelError] as for Agent. It only labels the record: the wait is
	// Timeout's.
	Policy string

	// IncidentWait bounds how long a timeout, an automatic break and a
	// forced unlock wait for their incident row's append (incident.go);
	// zero means DefaultIncidentWait (250 ms). Past it they go on, the
	// append left running on its own goroutine ([TimeoutError] Incident:
	// ErrIncidentStalled).
	IncidentWait time.Duration

	incidentCap int64
	onStep      func(Step)
	afterCommit func(h *Hold) error
	rand        io.Reader
	restore     Restorer
	onRestore   func(name, from string)
	onDoubled   func(name string, removed int)
}

// ExclusiveCreateFS is a [vfs.FS] that selects, for every lock on it, the
// spec's exclusive create where link() is refused, as
// [Options].ExclusiveCreate does (the conformance suite's "no hard links"
// column: nolinkfs.FS.ExclusiveCreate).
type ExclusiveCreateFS interface {
	// ExclusiveCreatePublish reports whether locks on this FS are
	// published by the spec's exclusive create where link() is refused.
	ExclusiveCreatePublish() bool
}

// SetOnStep makes o call f synchronously at each [Step] (spec: The steps,
// "a test-only seam"): a test pauses (blocks in f) or kills the process
// there. The shipped path never sets it.
func SetOnStep(o *Options, f func(Step)) { o.onStep = f }

// SetAfterCommit makes [Update] call f after the commit rename, with the
// lock still held (the spec's afterWrite: `pa dispatch open` patches the
// board there through [Hold.WriteFenced]). Its error is returned by
// Update; the commit is never repeated.
func SetAfterCommit(o *Options, f func(h *Hold) error) { o.afterCommit = f }

// AfterCommitOf is the function [SetAfterCommit] set in o, or nil.
func AfterCommitOf(o Options) func(h *Hold) error { return o.afterCommit }

// SetRestore makes [Update] restore its guarded file, when it is missing,
// from a complete temp file that a provably dead writer left beside it, as
// r decides (restore.go); nil turns it off, the default. onRestore, when
// not nil, is told of each restore with the guarded file's name and the
// temp file's; it only observes.
func SetRestore(o *Options, r Restorer, onRestore func(name, from string)) {
	o.restore, o.onRestore = r, onRestore
}

// SetOnRestore sets only the observer of [SetRestore], keeping o's
// Restorer: the caller that words the restore is not the one that knows
// the file's format.
func SetOnRestore(o *Options, onRestore func(name, from string)) { o.onRestore = onRestore }

// OnRestoreOf is the observer [SetRestore] or [SetOnRestore] set in o, or
// nil.
func OnRestoreOf(o Options) func(name, from string) { return o.onRestore }

// SetOnDoubled makes o tell f of each guarded file (or file written with
// [Hold.WriteFenced]) that its folder listed more than once, after a
// power cut inside an exFAT rename, once the hold removed its extra
// entries (doubled.go: the guarded file's at the acquire, before any
// read; another file's right before its write's rename): name is the
// file, removed how many entries went. It only observes.
func SetOnDoubled(o *Options, f func(name string, removed int)) { o.onDoubled = f }

// OnDoubledOf is the observer [SetOnDoubled] set in o, or nil.
func OnDoubledOf(o Options) func(name string, removed int) { return o.onDoubled }

// SetIncidentCap makes n bytes the incident log's cap for o (0:
// IncidentCap), for the tests of the cap.
func SetIncidentCap(o *Options, n int64) { o.incidentCap = n }

// SetRand makes r the source of the 24-hex token of each hold and of the
// attempt token of each name; nil means crypto/rand.Reader.
func SetRand(o *Options, r io.Reader) { o.rand = r }

// env is Options with every default filled in.
type env struct {
	host        Host
	now         func() time.Time
	rand        io.Reader
	timeout     time.Duration
	poll        time.Duration
	busyWait    time.Duration
	onWait      func(lock string, holder Holder, deadline time.Time)
	onBreak     func(lock string, dead Holder)
	onIncident  func(lock, event string, err error)
	onStep      func(Step)
	afterCommit func(h *Hold) error
	restore     Restorer
	onRestore   func(name, from string)
	onDoubled   func(name string, removed int)
	// exclusive: the spec's exclusive create where link() is refused
	// (Options.ExclusiveCreate, or the FS's ExclusiveCreateFS: forFS).
	exclusive bool
	// agent, operation and policy are the record's labels (Options).
	agent, operation, policy string
	// incidentWait and incidentCap bound the incident log's appends.
	incidentWait time.Duration
	incidentCap  int64
}

func (o Options) env() *env {
	e := &env{
		host: o.Host, now: o.Now, rand: o.rand, timeout: o.Timeout,
		poll: o.PollInterval, busyWait: o.UnlockBusyWait,
		onWait: o.OnWait, onBreak: o.OnBreak, onIncident: o.OnIncidentError,
		onStep: o.onStep, afterCommit: o.afterCommit,
		restore: o.restore, onRestore: o.onRestore, onDoubled: o.onDoubled,
		exclusive: o.ExclusiveCreate,
		agent:     o.Agent, operation: o.Operation, policy: o.Policy,
		incidentWait: o.IncidentWait, incidentCap: o.incidentCap,
	}
	if e.incidentWait <= 0 {
		e.incidentWait = DefaultIncidentWait
	}
	if e.incidentCap <= 0 {
		e.incidentCap = IncidentCap
	}
	if e.host == nil {
		e.host = OSHost()
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.rand == nil {
		e.rand = rand.Reader
	}
	switch {
	case e.timeout == 0:
		e.timeout = DefaultTimeout
	case e.timeout < 0:
		e.timeout = 0
	}
	if e.poll <= 0 {
		e.poll = DefaultPollInterval
	}
	if e.busyWait <= 0 {
		e.busyWait = DefaultUnlockBusyWait
	}
	return e
}

func (e *env) step(s Step) {
	if e.onStep != nil {
		e.onStep(s)
	}
}

// forFS returns e with the exclusive create selected when fsys, or an FS
// it wraps (Unwrap() vfs.FS, as faultfs has), is an ExclusiveCreateFS
// that asks for it; the first ExclusiveCreateFS found decides. Called
// with the FS an entry point is given, before it is pinned.
func (e *env) forFS(fsys vfs.FS) *env {
	for i := 0; fsys != nil && i < maxUnwrap; i++ {
		if x, ok := fsys.(ExclusiveCreateFS); ok {
			e.exclusive = e.exclusive || x.ExclusiveCreatePublish()
			return e
		}
		u, ok := fsys.(interface{ Unwrap() vfs.FS })
		if !ok {
			break
		}
		fsys = u.Unwrap()
	}
	return e
}

// maxUnwrap bounds the wrappers forFS looks through.
const maxUnwrap = 16
