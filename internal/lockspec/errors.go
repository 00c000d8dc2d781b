package lockspec

import (
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking/policy"
)

// ErrTimeout is matched (errors.Is) by every *TimeoutError. Its code
// ([policy.CodeOf]) is "lock_acquire_timeout".
var ErrTimeout error = &codedError{"locking: timed out waiting for the lock", policy.CodeTimeout}

// ErrLockLost reports that a hold's lock no longer carries its token: the
// fence refused a commit, or a release found another lock under the name
// (spec: Guarantees, 1). A writer that gets it committed nothing (from
// [Hold.Commit] or [Hold.WriteFenced]); [Update] runs its whole
// read-modify-write again while its deadline allows. Its code is
// "lock_lost".
var ErrLockLost error = &codedError{"locking: lock lost: the lock no longer carries this hold's token", policy.CodeLost}

// ErrLockChanged is returned by [Unlock] when the lock is no longer the one
// it was given (its bytes changed or it is gone): nothing was removed. Its
// code is "lock_changed".
var ErrLockChanged error = &codedError{"locking: the lock changed since it was read; nothing was removed", policy.CodeChanged}

// ErrNotALock is returned by [Unlock] when the lock name holds a directory:
// nothing is moved or removed. Its code is "lock_unreadable".
var ErrNotALock error = &codedError{"locking: not a lock", policy.CodeUnreadable}

// TimeoutError is returned when a writer waited out its timeout for a lock
// whose holder is not provably dead (spec: The steps, Acquire step 3; the
// spec's SpawnLogLockError). It matches [ErrTimeout]. It is data: the
// command that clears the lock, and when --force is right, are the
// caller's to say (pa's are in cmd/pa).
type TimeoutError struct {
	// Lock is the lock's name in its FS, whole and unescaped.
	Lock string
	// Waited is how long the writer waited.
	Waited time.Duration
	// Holder is the lock as last read: pid, hostname, acquiredAt, age and
	// state (alive, dead, on another host or unreadable).
	Holder Holder
	// Claim, when not nil, is another breaker's live claim that kept this
	// writer from breaking a dead holder's lock at its last try (row R11).
	Claim *ClaimOwner
	// Incident is nil when the timeout's row was appended to the lock's
	// incident log ([IncidentsName]) or, under the single_flight policy
	// ([Options] Policy), none was due (a held lock is then an ordinary
	// result); else why not: the append's error, [ErrIncidentsFull] or
	// [ErrIncidentStalled]. It never changes the timeout, and Error does
	// not say it.
	Incident error
}

// Error names the lock, its holder and how long the writer waited (and the
// claim's owner when one kept it from breaking a dead holder's lock):
// `lock <lock> held by pid 1234 on host "h" (alive, ...): gave up after
// 10s`. It names no command: what clears the lock is the caller's to say.
func (e *TimeoutError) Error() string {
	lead := Shown(e.Holder).HeldBy(termsafe.Value(e.Lock))
	if e.Claim != nil {
		return fmt.Sprintf("lock %s: gave up after %s; %s is breaking it", lead, display.Age(e.Waited), e.Claim.describe())
	}
	return fmt.Sprintf("lock %s: gave up after %s", lead, display.Age(e.Waited))
}

// Is makes errors.Is(err, ErrTimeout) true.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// RefusedError is returned by [Unlock] without force when the holder is not
// provably dead (alive, on another host, a reused pid, or unreadable): the
// lock is left byte for byte (spec: Unlock; row R20). Like [TimeoutError]
// it is data, and names no command.
type RefusedError struct {
	// Lock is the lock's name in the FS (the spawn-log's name + ".lock"),
	// whole and unescaped (escape it before printing it).
	Lock string
	// Holder is the lock as Unlock was given it, judged not provably dead
	// (its State is StateAlive, StateOtherHost or StateUnreadable).
	Holder Holder
}

// Error names the lock and its holder, and that it was not removed:
// `lock <lock> held by pid 1234 ... : not removed, its holder is not
// provably dead`.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("lock %s: not removed, its holder is not provably dead", Shown(e.Holder).HeldBy(termsafe.Value(e.Lock)))
}

// ClaimOwner is who owns a breaker's claim, as its name records: the host
// hash (8 hex of the sha256 of its hostname) and the pid.
type ClaimOwner struct {
	Claim    string // the claim's name in the FS
	HostHash string // 8 hex; "" when the name could not be read
	PID      int    // 0 when the name could not be read
}

// describe names the claim's owner and the claim's base name, escaped.
func (c ClaimOwner) describe() string { return display.Claim(c.PID, c.HostHash, c.Claim) }

// BusyError is returned by [Unlock] without force when another breaker's
// live claim stayed on the lock for the whole busy-wait (spec: Unlock;
// row R11): nothing was removed. Like [TimeoutError] it is data, and names
// no command.
type BusyError struct {
	// Lock is the lock's name in the FS, whole and unescaped.
	Lock string
	// Holder is the lock as Unlock was given it: provably dead, left in
	// place because another breaker is on it.
	Holder Holder
	// Claim is the other breaker's live claim, as last listed: its name
	// and the owner (host hash and pid) its name records.
	Claim ClaimOwner
}

// Error names the lock, its holder and the claim's owner: `lock <lock>
// held by pid 1234 ...: not removed, pid 4242 (host 0a1b2c3d, claim ...)
// is breaking it`.
func (e *BusyError) Error() string {
	return fmt.Sprintf("lock %s: not removed, %s is breaking it", Shown(e.Holder).HeldBy(termsafe.Value(e.Lock)), e.Claim.describe())
}

// NotSyncedError reports a write that landed (its rename is done) but whose
// folder could not be synced: the new content is in the file, its
// durability across a power loss is not proved. [Hold.Commit],
// [Hold.WriteFenced] and [Update] return it only after the rename; a caller
// must never repeat the write (it would record it twice).
type NotSyncedError struct {
	Name string // the file written
	Err  error  // the folder sync's error
}

// Error says that the write landed.
func (e *NotSyncedError) Error() string {
	return fmt.Sprintf("%s is written, but syncing its folder failed: %v", termsafe.Value(e.Name), e.Err)
}

// Unwrap returns the sync's error.
func (e *NotSyncedError) Unwrap() error { return e.Err }
