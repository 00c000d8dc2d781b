package lockspec

import (
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/internal/display"
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
	// Hostname is the hostname the lock records, whole and unescaped
	// (escape it before printing it). Empty with HasHostname false for
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

	// LockID, Agent, Operation and Policy are the holder's public-safe
	// fields as its record says them (the lock's hashed id, [LockID]; the
	// labels of [Options]): each "" when not recorded (an earlier record,
	// a caller that gave none) or not in its valid shape. They are
	// untrusted and decide nothing; each holds only letters, digits,
	// spaces and ._:@+-.
	LockID, Agent, Operation, Policy string

	// OtherNamespace reports, for a holder judged alive (by its kernel
	// lock), that the lock records a pid namespace of this host that is
	// not the judge's: its pid is not this namespace's process of that
	// number. Messages say "alive in another pid namespace of this host".
	OtherNamespace bool

	// Directory reports that the lock name is a directory (the directory
	// publish, docs/spawn-log-lock.md): readable when it holds exactly one
	// regular file <token>.json whose record carries that token (Mode 0),
	// unreadable otherwise (Mode fs.ModeDir), as is every directory an
	// earlier build met.
	Directory bool

	data []byte // the bytes read (at most MaxLockBytes+1)
	// marker and entries are, for a directory, the name of the one
	// regular file it holds ("" when it holds no such single file) and
	// how many entries it holds.
	marker  string
	entries int
}

// EvidenceKernelLock is the Evidence of a holder judged alive because a
// process holds the lock's kernel lock: alive for certain, whatever its pid
// says (a stopped process holds it too).
const EvidenceKernelLock = "holds the lock's kernel lock"

// Shown is h as internal/display words it: in this package's errors and,
// through internal/lockview, in pa's lines, so a holder is worded in one
// place. The state of a holder alive in another pid namespace of this host
// says so.
func Shown(h Holder) display.Holder {
	state := h.State.String()
	if h.State == StateAlive && h.OtherNamespace {
		state += " " + StateOtherNamespace.String()
	}
	return display.Holder{
		Unreadable: h.State == StateUnreadable, Mode: h.Mode, Size: h.Size, MaxSize: MaxLockBytes,
		PID: h.PID, Hostname: h.Hostname, HasHostname: h.HasHostname,
		AcquiredAt: h.AcquiredAt, Age: h.Age, State: state, Evidence: h.Evidence,
	}
}

// judge reads a lock's bytes into a Holder: parse, then host, then the
// proof of death (liveness). A lock of another host is judged without
// asking about its pid. kernel, when not nil, tries the kernel lock the
// record claims on the file the bytes were read from.
func (e *env) judge(data []byte, size int64, fileTime time.Time, kernel func(vfs.FileKey) kernelState) Holder {
	h := Holder{FileTime: fileTime, Size: size, data: data}
	rec, ok := parseRecord(data)
	if !ok || size > MaxLockBytes {
		h.State = StateUnreadable
		h.Age = ageSince(e.now(), fileTime)
		return h
	}
	h.PID, h.Hostname, h.HasHostname = rec.pid, rec.hostname, rec.hasHostname
	h.Token, h.AcquiredAt = rec.token, rec.acquiredAt
	h.Identity, h.KernelLock = rec.id, rec.claimsKernel
	h.LockID, h.Agent, h.Operation, h.Policy = rec.labels.lockID, rec.labels.agent, rec.labels.operation, rec.labels.policy
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
		// number here, which messages say.
		h.OtherNamespace = rec.id.PIDNamespace != e.selfIdentity().PIDNamespace
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
