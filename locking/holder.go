package locking

import (
	"fmt"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/vfs"
)

// State is the judgement of a lock's holder (spec: The one automatic break).
type State int

const (
	// StateAlive: the holder is on this host (or names no host) and its pid
	// answers, or the answer is EPERM. Never broken automatically, however
	// old; a reused pid reads as alive.
	StateAlive State = iota + 1
	// StateDead: the holder is on this host (or names no host) and its pid
	// is provably gone. The one state the automatic break acts on.
	StateDead
	// StateOtherHost: the lock names another hostname. Its pid is never
	// checked here and it is never broken automatically.
	StateOtherHost
	// StateUnreadable: the lock does not parse to an object with an integer
	// pid (an empty file among others). Never broken automatically.
	StateUnreadable
	// StateOtherNamespace: the lock's holder is of this hostname and boot
	// but records another pid namespace, where a pid means nothing here,
	// and no kernel lock proves it dead. Never broken automatically
	// (docs/spawn-log-lock.md, "Proof of death").
	StateOtherNamespace
)

// String returns the state as messages show it: "alive", "dead",
// "on another host" or "empty or unreadable".
func (s State) String() string {
	switch s {
	case StateAlive:
		return "alive"
	case StateDead:
		return "dead"
	case StateOtherHost:
		return "on another host"
	case StateUnreadable:
		return "empty or unreadable"
	case StateOtherNamespace:
		return "in another pid namespace of this host"
	}
	return "unknown"
}

// Holder is a lock as read from disk and judged: who holds it, since when
// and whether that holder is provably dead. Its zero value is not a lock; it
// is returned by [Inspect] and carried by *TimeoutError, *RefusedError and
// *BusyError. A Holder also remembers the exact bytes it was read from, so
// [Unlock] removes only that lock.
type Holder struct {
	// PID is the holder's pid; 0 when the lock is unreadable.
	PID int
	// Hostname is the hostname the lock records, whole and unescaped (see
	// [DisplayValue] before printing it). Empty with HasHostname false for
	// the earlier shape that recorded none, judged as this host's.
	Hostname string
	// HasHostname reports whether the lock records a hostname at all
	// (false for the earlier shape, judged as this host's: spec: The lock
	// file and the names beside it).
	HasHostname bool
	// Token is the hold's 24-hex token.
	Token string
	// AcquiredAt is the lock's acquiredAt as recorded (not validated).
	AcquiredAt string
	// FileTime is the lock file's modification time.
	FileTime time.Time
	// Age is the time since the later of AcquiredAt and FileTime (FileTime
	// alone for an unreadable lock), never below 0 (spec: The clock). It is
	// shown to the operator and decides nothing.
	Age time.Duration
	// Size is the lock file's length in bytes.
	Size int64
	// Mode is the type of what is under the lock name: 0 for a regular
	// file, fs.ModeSymlink, fs.ModeDir, fs.ModeNamedPipe... (always
	// StateUnreadable when not 0), or fs.ModeIrregular when the name exists
	// for link() and an exclusive create but cannot be opened (a dangling
	// symlink on an FS that cannot lstat).
	Mode fs.FileMode
	// State is the judgement: alive, dead, on another host, in another pid
	// namespace or unreadable.
	State State
	// Evidence says what decided State, for messages: "holds the lock's
	// kernel lock", "pid 4242 is gone", "pid 4242 started at 100 is not
	// the holder, which started at 90"... Empty for a lock that records
	// no identity (the spec's four fields: judged by its pid alone), and
	// for one of another host or unreadable.
	Evidence string
	// Identity is the holder's identity as the lock records it (a field
	// not recorded, or not in its valid shape, is zero).
	Identity Identity
	// KernelLock reports whether the lock claims that its holder keeps an
	// exclusive kernel lock on it.
	KernelLock bool

	data []byte // the bytes read (at most maxLockBytes+1)
	// otherNamespace: the holder is alive and the lock records a pid
	// namespace that is not the judge's (its pid means nothing here).
	otherNamespace bool
}

// EvidenceKernelLock is the Evidence of a holder judged alive because a
// process holds the lock's kernel lock: alive for certain, whatever its pid
// says (a stopped process holds it too).
const EvidenceKernelLock = "holds the lock's kernel lock"

// Describe returns the holder in one line for messages, every value read
// from disk escaped and capped for display (spec: The lock file and the
// names beside it): `pid 1234 on host "h" (alive, age 3s, acquiredAt
// 2026-11-29T15:42:59.123Z)`, with the Evidence after the state when there
// is one (`(alive: holds the lock's kernel lock, age 3s, ...)`), or, for a
// lock that does not parse, `an empty lock (0 bytes, age 5s)` or `an
// unreadable lock (12 bytes, not a JSON object with an integer pid, age
// 5s)`. A holder alive in another pid namespace of this host, whose pid
// is not this namespace's process of that number, is `(alive in another
// pid namespace of this host: holds the lock's kernel lock, ...)`.
func (h Holder) Describe() string {
	if h.State == StateUnreadable {
		if h.Mode != 0 {
			return fmt.Sprintf("not a regular file (%s, age %s): not a lock", modeName(h.Mode), FormatAge(h.Age))
		}
		if h.Size == 0 {
			return fmt.Sprintf("an empty lock (0 bytes, age %s)", FormatAge(h.Age))
		}
		unit := "bytes"
		if h.Size == 1 {
			unit = "byte"
		}
		return fmt.Sprintf("an unreadable lock (%d %s, not a JSON object with an integer pid, age %s)", h.Size, unit, FormatAge(h.Age))
	}
	host := "no hostname (this host)"
	if h.HasHostname {
		host = `host "` + CapForDisplay(h.Hostname) + `"`
	}
	acq := CapForDisplay(h.AcquiredAt)
	if acq == "" {
		acq = "unknown"
	}
	state := h.State.String()
	if h.State == StateAlive && h.otherNamespace {
		state += " " + StateOtherNamespace.String()
	}
	if h.Evidence != "" {
		state += ": " + h.Evidence
	}
	return fmt.Sprintf("pid %d on %s (%s, age %s, acquiredAt %s)", h.PID, host, state, FormatAge(h.Age), acq)
}

// HeldBy returns lock and its holder as the lead of a message: `<lock> held
// by pid 1234 on host "h" (...)`, or `<lock> is an empty lock (...)` for a
// lock that does not parse. lock is shown as given: cap its parts for
// display before.
func (h Holder) HeldBy(lock string) string {
	if h.State == StateUnreadable {
		return lock + " is " + h.Describe()
	}
	return lock + " held by " + h.Describe()
}

// maxShownAge is the longest age FormatAge prints in full (about 11 years).
const maxShownAge = 100000 * time.Hour

// modeName names a file type for an operator.
func modeName(m fs.FileMode) string {
	if name, ok := filekind.Name(m); ok {
		return name
	}
	return "a name that cannot be read"
}

// FormatAge prints an age for an operator: milliseconds below a second,
// whole seconds above (3s, 1m5s, 26h0m0s), and "over 100000h" past that
// (so a message stays bounded whatever the file time).
func FormatAge(d time.Duration) string {
	if d > maxShownAge {
		return "over 100000h" // bounded: a file time centuries off
	}
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// judge reads a lock's bytes into a Holder: parse, then host, then the
// proof of death (liveness). A lock of another host is judged without
// asking about its pid. kernel, when not nil, tries the kernel lock the
// record claims on the file the bytes were read from.
func (e *env) judge(data []byte, size int64, fileTime time.Time, kernel func(vfs.FileKey) kernelState) Holder {
	h := Holder{FileTime: fileTime, Size: size, data: data}
	rec, ok := parseRecord(data)
	if !ok || size > maxLockBytes {
		h.State = StateUnreadable
		h.Age = ageSince(e.now(), fileTime)
		return h
	}
	h.PID, h.Hostname, h.HasHostname = rec.pid, rec.hostname, rec.hasHostname
	h.Token, h.AcquiredAt = rec.token, rec.acquiredAt
	h.Identity, h.KernelLock = rec.id, rec.claimsKernel
	later := fileTime
	if t, ok := parseAcquiredAt(rec.acquiredAt); ok && t.After(later) {
		later = t
	}
	h.Age = ageSince(e.now(), later)
	if rec.hasHostname && rec.hostname != e.host.Hostname() {
		h.State = StateOtherHost
		return h
	}
	h.State, h.Evidence = e.liveness(rec, kernel)
	if h.State == StateAlive && rec.id.PIDNamespace != 0 {
		// Alive by its kernel lock, as liveness judges no other holder of
		// another pid namespace alive: its pid is not the process of that
		// number here, which Describe says.
		h.otherNamespace = rec.id.PIDNamespace != e.selfIdentity().PIDNamespace
	}
	return h
}

func ageSince(now, t time.Time) time.Duration {
	if t.IsZero() {
		return 0
	}
	if d := now.Sub(t); d > 0 {
		return d
	}
	return 0
}
