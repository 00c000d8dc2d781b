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
// provably dead holder, OnIncidentError each break or forced [Unlock]
// whose incident row was not appended (the lock, the event, the error);
// they decide nothing. Agent, Operation and Policy
// label the holder's record (beside its hashed lock_id, [LockID]) for an
// operator who finds the lock held: public-safe labels ([ValidLabel]; a
// policy's name, "mutation", "monitor" or "single_flight"), "" not
// recorded; another value fails [Acquire] and [Update] with a
// *[LabelError] before any file is touched (docs/spawn-log-lock.md, "The
// holder's public-safe fields"). ExclusiveCreate picks, on a volume
// without hard links, the spec's exclusive create over the default
// directory publish (rows R29, R38, R47). IncidentWait bounds how long a
// timeout, a break or a forced unlock waits for its incident row's append
// (zero: [DefaultIncidentWait]; past it the append goes on alone and a
// [TimeoutError]'s Incident is [ErrIncidentStalled]).
//
// Options is an alias of the internal type that carries the fields: read
// them with `go doc github.com/pa-toolkit/pa/internal/lockspec.Options`.
type Options = lockspec.Options

// MaxLabel is the longest agent or operation label of [Options], in bytes.
const MaxLabel = lockspec.MaxLabel

// ValidLabel reports whether s may be an agent or operation label of
// [Options]: at most MaxLabel bytes of ASCII letters, digits, spaces and
// ._:@+- (so never a path, an environment variable or a command line);
// "" is valid (not recorded).
func ValidLabel(s string) bool { return lockspec.ValidLabel(s) }

// LockID returns the stable hashed id a record carries for the lock on
// name (the guarded file's slash name in its FS): "lk_" and 16 hex digits
// of a SHA-256, never the path; locking/kernel.LockID gives the same for
// the same name.
func LockID(name string) string { return lockspec.LockID(name) }

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
