package locking

import (
	"context"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// Update runs the whole read-modify-write of the file name under its lock
// (spec: The steps, Acquire then Hold and commit then Release; Guarantees):
// acquire, read (hold:read), fn, commit by a fenced temp-file rename, then
// release.
//
// When the fence finds the lock lost, nothing is committed and the whole
// read-modify-write runs again under a fresh lock, while one timeout from
// Update's start has not passed (each new hold gets the time left). So a
// nil return means the new content is in the file; no record is dropped.
//
// Errors: a *TimeoutError (matching ErrTimeout) when the lock stays held by
// a holder not provably dead; a *NotSyncedError when the commit landed but
// the folder sync failed (never repeat the write); an error matching
// ErrLockLost when the lock was lost and the time ran out; fn's error as
// is; ctx's error; the FS's errors.
func Update(ctx context.Context, fsys vfs.FS, name string, fn UpdateFunc, opts Options) error {
	return lockspec.Update(ctx, fsys, name, fn, opts)
}

// UpdateFunc computes the new content of a file from its current content.
// exists is false when the file does not exist yet (current is then nil).
// It may be called more than once by one [Update] (again after a lost
// lock), each time with the content read under that hold, so it must not
// have side effects beyond its result. An error from it ends the Update
// with nothing written.
type UpdateFunc = lockspec.UpdateFunc

// Acquire takes the lock that guards the file name in fsys (the lock is
// LockName(name), in the same folder, which must exist), waiting up to
// opts.Timeout for a holder that is not provably dead (spec: The steps,
// Acquire; rows R01, R02, R04-R07, R13).
//
// Acquire sweeps the leftovers of dead owners, publishes the lock whole (a
// pending file and link(), or an exclusive create when link() is refused;
// see docs/spawn-log-lock.md), and on
// a held lock breaks it at once when its holder is provably dead;
// otherwise it waits for the lock to go: woken at once by a release where
// the FS can watch for one ([vfs.WatchFS]), and in any case after
// opts.PollInterval (about 10 ms), or after a back-off up to it where it
// cannot. The caller must call [Hold.Release].
//
// Once the lock is held, a file name that its folder listed twice (a power
// cut inside an exFAT rename over it) is settled before Acquire returns:
// the copy a lookup finds is committed over the name, its other entries
// removed, the folder synced (docs/spawn-log-lock.md, "A power cut").
//
// Errors: a *TimeoutError (matching ErrTimeout) carrying the holder as
// last read when the timeout runs out (data: what clears the lock is the
// caller's to say); ctx.Err() when ctx ends first; a *fs.PathError
// matching fs.ErrInvalid when name is not a valid path, or
// [ErrReservedName] when it is another file's lock or a name beside one
// (`ok.lock`, `ok.lock.incidents.jsonl`), nothing touched; a *fs.PathError
// for name matching fs.ErrNotExist when its folder does not exist; the
// FS's error (a
// *fs.PathError or *os.LinkError) when a file operation fails; from the
// settle of a name listed twice, an error matching ErrLockLost (the lock
// was lost while it settled: nothing removed; [Update] takes a fresh
// hold) or one saying the folder cannot be listed or the name stays
// listed twice (nothing is then held).
func Acquire(ctx context.Context, fsys vfs.FS, name string, opts Options) (*Hold, error) {
	return lockspec.Acquire(ctx, fsys, name, opts)
}

// Hold is one hold of a lock, from [Acquire] to [Hold.Release]: Commit
// writes the guarded file by a fenced temp-file rename (spec: Hold and
// commit), WriteFenced writes another file under the same fence (the
// spec's afterWrite), Fence checks that the lock still carries the hold's
// token (an error matching [ErrLockLost] when not), Token is that token,
// Lock the lock's name, HardLinks the class this hold learned. It is not
// safe for concurrent use.
//
// Hold is an alias of the internal type that carries the methods: read
// their signatures with
// `go doc github.com/pa-toolkit/pa/internal/lockspec.Hold`.
type Hold = lockspec.Hold

// Inspect reads the lock that guards name and judges its holder, without
// changing anything (it never writes, breaks or sweeps). `pa dispatch
// unlock` prints what it returns before it acts, and `pa board check`
// reports it.
//
// Errors: one matching fs.ErrNotExist when there is no lock; a
// *fs.PathError matching fs.ErrInvalid when name is not a valid path; the
// FS's error (a *fs.PathError) when the lock cannot be read. A lock that
// does not parse is no error: its Holder's State is StateUnreadable.
func Inspect(fsys vfs.FS, name string, opts Options) (Holder, error) {
	return lockspec.Inspect(fsys, name, opts)
}

// Unlock removes the lock that guards name, which must still be exactly the
// lock judged (read by [Inspect] and printed by the caller) (spec: Unlock;
// rows R18-R21, R49).
//
// Without force, only a holder that is provably dead is removed, through the
// break's steps (claim, confirm, rename, check, remove); any other holder
// (alive, on another host, a reused pid, unreadable) gets a *RefusedError
// and the lock is left byte for byte. While another breaker's live claim is
// on the lock, Unlock tries again for opts.UnlockBusyWait (1 s) and then
// returns a *BusyError naming that claim's owner.
//
// With force, the lock is broken whatever its holder, with the bytes check
// only, and other breakers' claims do not stop it. Use it only once the
// holder's process is gone or stuck, never while it still runs: that is
// where the spec's residual windows start.
//
// Either way Unlock never removes a lock it has not just proved is the one
// judged: when the lock changed or is gone, it removes nothing and returns
// ErrLockChanged. A directory under the lock name is never moved: Unlock
// returns an error matching ErrNotALock. It sweeps nothing but the lock it
// judged.
//
// Errors: a *RefusedError or a *BusyError (data: the lock, its holder, the
// claim; what clears the lock is the caller's to say), ErrLockChanged, an
// error matching ErrNotALock, ctx's error, a *fs.PathError matching
// fs.ErrInvalid when name is not a valid path, and the FS's errors (a
// *fs.PathError or *os.LinkError).
func Unlock(ctx context.Context, fsys vfs.FS, name string, judged Holder, force bool, opts Options) error {
	return lockspec.Unlock(ctx, fsys, name, judged, force, opts)
}

// LockName returns the name of the lock that guards the file name: name +
// ".lock" (spec: The lock file and the names beside it).
func LockName(name string) string { return lockspec.LockName(name) }
