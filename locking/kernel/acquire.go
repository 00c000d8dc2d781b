package kernel

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
)

// Acquire takes the kernel lock of name, the file to protect: an
// exclusive non-blocking kernel lock ([vfs.TryLock]) on the sibling
// "<name>.lock", created when absent and never removed (design:
// exclusive_file_lock). A held lock is tried again after a bounded sleep
// ([Options] Retry) until the policy's deadline on the monotonic clock;
// there is no blocking wait. On success the holder's [Record] is written
// (into the lock file on POSIX, the sidecar on Windows) and the [*Hold]
// is returned; the caller ends it with [Hold.Release].
//
// Errors: a *[TimeoutError] (ErrTimeout, code lock_acquire_timeout) when a
// waiting policy's deadline passed, after its incident row was appended or
// its append given up on ([Options] IncidentWait); a *[HeldError]
// (ErrHeld) at once under single_flight; a *[UnsupportedError]
// (ErrUnsupported) where the volume has no kernel lock or one that does
// not exclude; a *[LabelError] for a bad label; a *fs.PathError matching
// [ErrReservedName] for a name this lock writes for another file
// (`ok.lock`, `ok.tmp`), nothing touched; the context's error,
// wrapped, when ctx ends during the wait; the file system's errors
// (*fs.PathError) otherwise.
func Acquire(ctx context.Context, fsys vfs.FS, name string, o Options) (*Hold, error) {
	lock := name + lockSuffix
	if err := check(lock, o); err != nil {
		return nil, err
	}
	if err := checkGuarded(name); err != nil {
		return nil, err
	}
	f, err := fsys.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	start := time.Now() // its monotonic reading measures the wait
	deadline := o.deadline()
	for n := 1; ; n++ {
		err := vfs.TryLock(f, lock)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			if unsupported(err) {
				return nil, &UnsupportedError{Lock: lock, Err: err}
			}
			return nil, err
		}
		if o.Policy == policy.SingleFlight {
			f.Close()
			rec, rerr := o.layout.readRecord(fsys, name)
			return nil, &HeldError{Lock: lock, Holder: rec, HolderErr: rerr}
		}
		waited := time.Since(start)
		if waited >= deadline {
			f.Close()
			return nil, timeout(fsys, name, o, start, waited)
		}
		if o.onRetry != nil {
			o.onRetry(n)
		}
		if err := sleep(ctx, min(o.retry(), deadline-waited)); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: waiting for its holder: %w", lock, err)
		}
	}
	h := &Hold{fsys: fsys, name: name, f: f, layout: o.layout}
	if err := exclusive(fsys, lock); err != nil {
		h.unlock()
		return nil, err
	}
	h.rec = Record{
		LockID: LockID(name), PID: os.Getpid(), Hostname: hostname(),
		Agent: o.Agent, Operation: o.Operation, Policy: o.Policy.String(),
		AcquiredAt: o.wallNow().UTC().Format(timeLayout),
	}
	h.now = o.wallNow
	if err := h.layout.writeRecord(fsys, name, f, h.rec); err != nil {
		h.unlock()
		return nil, fmt.Errorf("lock %s: writing the holder record: %w", lock, err)
	}
	return h, nil
}

// check refuses options that no acquisition can use.
func check(lock string, o Options) error {
	if !fs.ValidPath(lock) {
		return &fs.PathError{Op: "lock", Path: lock, Err: fs.ErrInvalid}
	}
	if !o.Policy.Valid() {
		return fmt.Errorf("lock %s: %w %d", lock, policy.ErrUnknown, int(o.Policy))
	}
	if !policy.ValidLabel(o.Agent) {
		return &LabelError{Lock: lock, Field: "agent"}
	}
	if !policy.ValidLabel(o.Operation) {
		return &LabelError{Lock: lock, Field: "operation"}
	}
	return nil
}

// unsupported reports whether a TryLock error says the volume has no
// kernel lock.
func unsupported(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.ENOLCK)
}

// sleep waits d or until ctx ends, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return clip(h)
}
