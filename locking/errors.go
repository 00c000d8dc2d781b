package locking

import (
	"errors"
	"fmt"
	"path"
	"time"
)

// ErrTimeout is matched (errors.Is) by every *TimeoutError.
var ErrTimeout = errors.New("locking: timed out waiting for the lock")

// ErrLockLost reports that a hold's lock no longer carries its token: the
// fence refused a commit, or a release found another lock under the name
// (spec: Guarantees, 1). A writer that gets it committed nothing (from
// [Hold.Commit] or [Hold.WriteFenced]); [Update] runs its whole
// read-modify-write again while its deadline allows.
var ErrLockLost = errors.New("locking: lock lost: the lock no longer carries this hold's token")

// ErrLockChanged is returned by [Unlock] when the lock is no longer the one
// it was given (its bytes changed or it is gone): nothing was removed.
var ErrLockChanged = errors.New("locking: the lock changed since it was read; nothing was removed")

// ErrNotALock is returned by [Unlock] when the lock name holds a directory:
// nothing is moved or removed.
var ErrNotALock = errors.New("locking: not a lock")

// TimeoutError is returned when a writer waited out its timeout for a lock
// whose holder is not provably dead (spec: The steps, Acquire step 3; the
// spec's SpawnLogLockError). It matches [ErrTimeout].
type TimeoutError struct {
	// Lock is the lock's name in its FS.
	Lock string
	// Waited is how long the writer waited.
	Waited time.Duration
	// Holder is the lock as last read: pid, hostname, acquiredAt, age and
	// state (alive, dead, on another host or unreadable).
	Holder Holder
	// Claim, when not nil, is another breaker's live claim that kept this
	// writer from breaking a dead holder's lock at its last try (row R11).
	Claim *ClaimOwner
	// UnlockCommand is the command the message names to clear the lock
	// ([Options.UnlockCommand]); "" reads as [DefaultUnlockCommand].
	UnlockCommand string
}

// Error names the lock, its holder and the one command that clears it
// (UnlockCommand, by default `pa dispatch unlock`).
func (e *TimeoutError) Error() string {
	if e.Claim != nil {
		return fmt.Sprintf("lock %s: gave up after %s; %s is breaking it; %s",
			e.Holder.HeldBy(DisplayValue(e.Lock)), FormatAge(e.Waited), e.Claim.describe(), forceHint(e.UnlockCommand))
	}
	return fmt.Sprintf("lock %s: gave up after %s; %s",
		e.Holder.HeldBy(DisplayValue(e.Lock)), FormatAge(e.Waited), clearHint(e.Holder, e.UnlockCommand))
}

// Is makes errors.Is(err, ErrTimeout) true.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// clearHint names the command that clears a lock held by h, and when
// --force is right.
func clearHint(h Holder, cmd string) string {
	if h.State == StateDead {
		return "clear it with " + unlockCommand(cmd)
	}
	return forceHint(cmd)
}

// forceHint names cmd with --force and when to use it.
func forceHint(cmd string) string {
	return "clear it with " + unlockCommand(cmd) + " --force, only once the holder's process is gone or stuck, never while it still runs"
}

// unlockCommand is cmd, or [DefaultUnlockCommand] when cmd is "".
func unlockCommand(cmd string) string {
	if cmd == "" {
		return DefaultUnlockCommand
	}
	return cmd
}

// RefusedError is returned by [Unlock] without force when the holder is not
// provably dead (alive, on another host, a reused pid, or unreadable): the
// lock is left byte for byte (spec: Unlock; row R20).
type RefusedError struct {
	// Lock is the lock's name in the FS (the spawn-log's name + ".lock"),
	// whole and unescaped (see [DisplayValue] before printing it).
	Lock string
	// Holder is the lock as Unlock was given it, judged not provably dead
	// (its State is StateAlive, StateOtherHost or StateUnreadable).
	Holder Holder
	// UnlockCommand is the command the message names with --force
	// ([Options.UnlockCommand]); "" reads as [DefaultUnlockCommand].
	UnlockCommand string
}

// Error names the holder and --force with when to use it.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("lock %s: not removed; use %s --force only once the holder's process is gone or stuck, never while it still runs",
		e.Holder.HeldBy(DisplayValue(e.Lock)), unlockCommand(e.UnlockCommand))
}

// ClaimOwner is who owns a breaker's claim, as its name records: the host
// hash (8 hex of the sha256 of its hostname) and the pid.
type ClaimOwner struct {
	Claim    string // the claim's name in the FS
	HostHash string // 8 hex; "" when the name could not be read
	PID      int    // 0 when the name could not be read
}

// describe names the claim's owner and the claim's base name, escaped.
func (c ClaimOwner) describe() string {
	return fmt.Sprintf("pid %d (host %s, claim %s)", c.PID, c.HostHash, DisplayValue(path.Base(c.Claim)))
}

// BusyError is returned by [Unlock] without force when another breaker's
// live claim stayed on the lock for the whole busy-wait (spec: Unlock;
// row R11): nothing was removed.
type BusyError struct {
	// Lock is the lock's name in the FS, whole and unescaped.
	Lock string
	// Holder is the lock as Unlock was given it: provably dead, left in
	// place because another breaker is on it.
	Holder Holder
	// Claim is the other breaker's live claim, as last listed: its name
	// and the owner (host hash and pid) its name records.
	Claim ClaimOwner
	// UnlockCommand is the command the message names
	// ([Options.UnlockCommand]); "" reads as [DefaultUnlockCommand].
	UnlockCommand string
}

// Error names the claim's owner.
func (e *BusyError) Error() string {
	cmd := unlockCommand(e.UnlockCommand)
	return fmt.Sprintf("lock %s: not removed, %s is breaking it; try %s again, or use %s --force only once that process is gone or stuck, never while it still runs",
		e.Holder.HeldBy(DisplayValue(e.Lock)), e.Claim.describe(), cmd, cmd)
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
	return fmt.Sprintf("%s is written, but syncing its folder failed: %v", DisplayValue(e.Name), e.Err)
}

// Unwrap returns the sync's error.
func (e *NotSyncedError) Unwrap() error { return e.Err }
