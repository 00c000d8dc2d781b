package locking

import (
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// Options are the lock's settings; the zero value is the shipped
// behaviour (spec: Guarantees, the paragraph on windows). Timeout is how
// long [Acquire] and [Update] wait for a held lock (zero: DefaultTimeout,
// NoWait: fail at once); PollInterval the longest wait between two reads
// of a held lock (zero: 10 ms); UnlockBusyWait how long [Unlock] waits
// behind another breaker's claim (zero: 1 s); Host this process's host
// (nil: [OSHost]); Now the clock that stamps acquiredAt and measures ages
// (nil: time.Now; it never decides a break). OnWait and OnBreak, when set,
// observe from the acquiring goroutine: OnWait once per holder an acquire
// waits on (with its deadline), OnBreak each automatic break of a
// provably dead holder; they decide nothing.
type Options = lockspec.Options

// Host is what the lock knows of the machine it runs on: its Hostname,
// this process's PID, and whether another pid is Alive (false only when
// provably gone). Tests give a fake one (package locking/locktest).
type Host = lockspec.Host

// OSHost is this process's real host.
func OSHost() Host { return lockspec.OSHost() }

// DefaultTimeout is the spec's LOCK_TIMEOUT_MS: how long a writer waits
// for a held lock before it fails with a *TimeoutError.
const DefaultTimeout = lockspec.DefaultTimeout

// NoWait as [Options] Timeout makes a held lock fail at once.
const NoWait time.Duration = lockspec.NoWait
