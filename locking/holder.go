package locking

import "github.com/pa-toolkit/pa/internal/lockspec"

// Holder is a lock as read from disk and judged (spec: The one automatic
// break): PID, Hostname (whole and unescaped: escape it before printing),
// HasHostname, Token, AcquiredAt (the record's string), Age (a
// time.Duration since the later of AcquiredAt and the lock file's time,
// never below 0; it decides nothing), State, Evidence (what decided the
// state, in words), Mode and Size of the file, and KernelLock and
// OtherNamespace for the proof of death. It is returned by [Inspect] and
// carried by the errors, and it remembers the exact bytes it was read
// from, so that [Unlock] removes only that lock.
type Holder = lockspec.Holder

// State is the judgement of a lock's holder (spec: The one automatic
// break). Only StateDead is ever broken automatically.
type State = lockspec.State

// The states of a holder; State.String words them as messages show them.
const (
	// StateAlive: the holder is on this host (or names no host) and is
	// not provably dead. Never broken automatically, however old.
	StateAlive = lockspec.StateAlive
	// StateDead: the holder is on this host and provably gone.
	StateDead = lockspec.StateDead
	// StateOtherHost: the lock names another hostname; never broken
	// automatically.
	StateOtherHost = lockspec.StateOtherHost
	// StateUnreadable: the lock does not parse (an empty file among
	// others), is longer than MaxLockBytes, or is not a regular file
	// (Holder.Mode not 0); never broken automatically.
	StateUnreadable = lockspec.StateUnreadable
	// StateOtherNamespace: a holder of this host and boot in another pid
	// namespace that no kernel lock proves dead; never broken
	// automatically.
	StateOtherNamespace = lockspec.StateOtherNamespace
)

// EvidenceKernelLock is the [Holder] Evidence of a holder judged alive
// because a process holds the lock's kernel lock.
const EvidenceKernelLock = lockspec.EvidenceKernelLock

// MaxLockBytes is the most bytes a lock file may hold: a longer one is
// [StateUnreadable] whatever it holds, read no further than one byte past
// it (a lock of this package is a few hundred bytes).
const MaxLockBytes = lockspec.MaxLockBytes
