package lockspec

import (
	"crypto/rand"
	"io"
	"time"
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
// behaviour: the real host, the real clock, crypto/rand, the spec's windows
// and no step hook. Options are values, never globals: two locks in one
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

	onStep      func(Step)
	afterCommit func(h *Hold) error
	rand        io.Reader
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
	onStep      func(Step)
	afterCommit func(h *Hold) error
}

func (o Options) env() *env {
	e := &env{
		host: o.Host, now: o.Now, rand: o.rand, timeout: o.Timeout,
		poll: o.PollInterval, busyWait: o.UnlockBusyWait,
		onStep: o.onStep, afterCommit: o.afterCommit,
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
