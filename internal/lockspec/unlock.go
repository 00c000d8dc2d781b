package lockspec

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs"
)

// Inspect is locking.Inspect: the lock read and judged, nothing changed.
func Inspect(fsys vfs.FS, name string, opts Options) (Holder, error) {
	if err := checkName(name); err != nil {
		return Holder{}, err
	}
	return opts.env().readLock(fsys, LockName(name))
}

// Unlock is locking.Unlock (spec: Unlock; rows R18-R21, R49).
func Unlock(ctx context.Context, fsys vfs.FS, name string, judged Holder, force bool, opts Options) error {
	if err := checkName(name); err != nil {
		return err
	}
	e := opts.env().forFS(fsys)
	n := e.names(name)
	if judged.Mode&fs.ModeDir != 0 && (!judged.Directory || judged.marker == "" && judged.entries > 0) {
		// More than a marker (two files, a subdirectory): no writer's
		// lock, and its removal would have to be recursive, which none
		// is.
		return fmt.Errorf("%w: %s is a directory holding more than a lock's record; nothing removed, look at it and remove it by hand", ErrNotALock, termsafe.Value(n.lock))
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
			if mode == breakForce {
				// A record only: the lock is gone whatever the append does.
				e.tellIncident(n.lock, EventForce, e.incident(fsys, n, EventForce, judged, 0))
			}
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
