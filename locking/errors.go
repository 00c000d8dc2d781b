package locking

import "github.com/pa-toolkit/pa/internal/lockspec"

// The errors of the lock. Each is data: it names the lock and its holder,
// and what clears the lock is the caller's to say (pa's words are in
// cmd/pa). Match them with errors.Is and errors.As.
var (
	// ErrTimeout is matched by every *TimeoutError.
	ErrTimeout = lockspec.ErrTimeout
	// ErrLockLost reports that a hold's lock no longer carries its token:
	// the fence refused a commit, or a release found another lock under
	// the name (spec: Guarantees, 1). Nothing was committed; [Update]
	// runs its whole read-modify-write again while its deadline allows.
	ErrLockLost = lockspec.ErrLockLost
	// ErrLockChanged is returned by [Unlock] when the lock is no longer
	// the one it was given (its bytes changed or it is gone): nothing was
	// removed.
	ErrLockChanged = lockspec.ErrLockChanged
	// ErrNotALock is matched by [Unlock]'s error when the lock name holds
	// a directory: nothing is moved or removed.
	ErrNotALock = lockspec.ErrNotALock
	// ErrReservedName is matched by the error of [Acquire] and [Update]
	// when the file to guard is named as one the lock writes for another
	// file: its lock (`ok.lock`), a name beside a lock
	// (`ok.lock.incidents.jsonl`), a temp or keep file of another file's
	// commit (`ok.tmp-<host>-<pid>-<hex>`). Nothing is touched.
	ErrReservedName = lockspec.ErrReservedName
)

// TimeoutError is returned when a writer waited out its timeout for a lock
// whose holder is not provably dead (spec: The steps, Acquire step 3; the
// error the spec names SpawnLogLockError): its fields are Lock (the
// lock's name), Waited (a time.Duration), Holder (the lock as last read),
// Claim (a *ClaimOwner: another breaker's live claim that kept this
// writer from breaking a dead holder, row R11; nil otherwise) and
// Incident (the outcome of the timeout's incident row: nil when it was
// appended, else the FS's error, [ErrIncidentsFull] or
// [ErrIncidentStalled]). It matches [ErrTimeout].
type TimeoutError = lockspec.TimeoutError

// RefusedError is returned by [Unlock] without force when the holder is
// not provably dead: the lock is left byte for byte (spec: Unlock; row
// R20). Its fields are Lock and Holder.
type RefusedError = lockspec.RefusedError

// BusyError is returned by [Unlock] without force when another breaker's
// live claim stayed on the lock for the whole busy-wait (spec: Unlock; row
// R11): nothing was removed. Its fields are Lock, Holder and Claim.
type BusyError = lockspec.BusyError

// ClaimOwner is who owns a breaker's claim, as its name records: Claim
// (the claim's name), HostHash (8 hex of the sha256 of its hostname) and
// PID; the last two are empty when the name could not be read.
type ClaimOwner = lockspec.ClaimOwner

// NotSyncedError reports a write that landed (its rename is done) but
// whose folder could not be synced: the content is in the file, its
// durability across a power loss is not proved. A caller must never repeat
// the write. Its fields are Name (the file) and Err (the sync's error,
// also Unwrap's).
type NotSyncedError = lockspec.NotSyncedError

// LabelError is returned by [Acquire] and [Update], before any file is
// touched, for an [Options] Agent, Operation or Policy a record must not
// hold: Field names which ("agent", "operation", "policy"); the message
// never repeats the value. Its code is policy.CodeInvalidLabel
// (lock_invalid_label).
type LabelError = lockspec.LabelError
