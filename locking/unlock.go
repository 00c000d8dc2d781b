package locking

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs"
)

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
	if err := checkName(name); err != nil {
		return Holder{}, err
	}
	return opts.env().readLock(fsys, LockName(name))
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
	if err := checkName(name); err != nil {
		return err
	}
	e := opts.env()
	n := e.names(name)
	if judged.Mode&fs.ModeDir != 0 {
		// A directory is no lock of any writer: a rename would move it
		// and its removal fail, leaving it under a broken name for good.
		return fmt.Errorf("%w: %s is a directory; nothing removed, look at it and remove it by hand", ErrNotALock, termsafe.Value(n.lock))
	}
	mode := breakForce
	if !force {
		mode = breakUnlock
		if judged.State != StateDead {
			return &RefusedError{Lock: n.lock, Holder: judged}
		}
	}
	busyUntil := time.Now().Add(e.busyWait)
	cls := classUnknown
	for {
		out, err := e.breakLock(fsys, n, &cls, judged, mode)
		if err != nil {
			return err
		}
		switch out.result {
		case breakDone:
			return nil
		case breakChanged, breakGone:
			return ErrLockChanged
		}
		if !time.Now().Before(busyUntil) {
			return &BusyError{Lock: n.lock, Holder: judged, Claim: out.busy}
		}
		if err := e.sleep(ctx, e.poll); err != nil {
			return err
		}
	}
}
