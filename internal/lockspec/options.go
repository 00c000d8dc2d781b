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
	// DefaultStaleWindow is LOCK_STALE_AFTER_MS: how old a held lock must be
	// before `pa board check` reports it. No break and no sweep reads it.
	DefaultStaleWindow = 60 * time.Second
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

// Options are the seams of the lock. The zero value is the shipped
// behaviour: the real host, the real clock, crypto/rand, the spec's windows
// and no step hook. Options are values, never globals: two locks in one
// process may use different ones (tests run several "processes" as
// goroutines, each with its own [Host]).
type Options struct {
	// Host is this process's host: its hostname, its pid and the liveness
	// of other pids. Nil means [OSHost].
	Host Host

	// Now stamps acquiredAt and measures the age printed in messages. Nil
	// means time.Now. It never decides a break or a sweep, and the waits
	// (timeout, poll, busy-wait) always run on the real clock.
	Now func() time.Time

	// Rand is the source of the 24-hex token of each hold and the 24-hex
	// attempt token of each name. Nil means crypto/rand.Reader.
	Rand io.Reader

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

	// OnStep, when set, is called synchronously at each [Step]. A test
	// pauses (blocks in it) or kills the process there. The shipped path
	// never sets it.
	OnStep func(Step)

	// AfterCommit, when set, is called by [Update] after the commit rename,
	// with the lock still held (the spec's afterWrite: `pa dispatch` patches
	// the board there through [Hold.WriteFenced]). Its error is returned by
	// Update; the commit is never repeated.
	AfterCommit func(h *Hold) error
}

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
		host: o.Host, now: o.Now, rand: o.Rand, timeout: o.Timeout,
		poll: o.PollInterval, busyWait: o.UnlockBusyWait,
		onStep: o.OnStep, afterCommit: o.AfterCommit,
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
