package lockspec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/pa-toolkit/pa/internal/wake"
	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
)

// class is the file-system class a hold has learned (spec: The steps, "The
// filesystem class is learned per hold").
type class int

const (
	classUnknown class = iota // no link() has answered yet in this hold
	classLinks                // a link() succeeded
	classNoLinks              // a link() failed with neither ENOENT nor EEXIST
)

// errHeld is publish's report that the lock name exists.
var errHeld = errors.New("lock held")

// errNoLinks stands for a link() already refused in this hold.
var errNoLinks = errors.New("no hard links")

// Acquire is locking.Acquire: the spec's Acquire (The steps; rows R01,
// R02, R04-R07, R13), then the settle of a guarded file listed twice
// (doubled.go). A name that is another file's lock, or a name beside a
// lock or another file's commit, is refused before anything is touched
// (ErrReservedName, reserved.go).
func Acquire(ctx context.Context, fsys vfs.FS, name string, opts Options) (*Hold, error) {
	e := opts.env().forFS(fsys)
	return e.acquire(ctx, fsys, name, time.Now().Add(e.timeout))
}

func checkName(name string) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "lock", Path: name, Err: fs.ErrInvalid}
	}
	return nil
}

// acquire runs Acquire until the deadline (real clock).
func (e *env) acquire(ctx context.Context, fsys vfs.FS, name string, deadline time.Time) (*Hold, error) {
	if err := checkGuarded(name); err != nil {
		return nil, err
	}
	if err := e.checkLabels(LockName(name)); err != nil {
		return nil, err // before any file is touched
	}
	start := time.Now()
	n := e.names(name)
	// Every name of the hold is in the lock's folder: open it once, so that
	// no call walks the path to it again (vfs.PinDir). Release closes it.
	fsys, unpin := vfs.PinDir(fsys, n.dir)
	h, err := e.acquirePinned(ctx, fsys, n, start, deadline)
	if err != nil {
		unpin()
		return nil, err
	}
	h.unpin = unpin
	if err := h.settleGuarded(); err != nil {
		_ = h.Release()
		return nil, err
	}
	return h, nil
}

// acquirePinned runs the steps of Acquire with the lock's folder pinned.
func (e *env) acquirePinned(ctx context.Context, fsys vfs.FS, n names, start, deadline time.Time) (*Hold, error) {
	listed, lerr := e.sweep(fsys, n) // step 1
	if errors.Is(lerr, fs.ErrNotExist) {
		// No folder: say so, rather than the missing pending file's name
		// the publish would meet.
		return nil, &fs.PathError{Op: "lock", Path: n.target, Err: fmt.Errorf("its folder %s: %w", n.dir, lerr)}
	}
	token, err := randomHex(e.rand, 12)
	if err != nil {
		return nil, err
	}
	h := &Hold{fsys: fsys, e: e, n: n, token: token, deadline: deadline}
	h.noteListing(n.target, listed, lerr)
	w := wake.New(fsys, n.lock, e.poll)
	defer w.End()
	missed := false // the last read found no lock although publish found one
	atOnce := 0     // tries again at once since the last wait
	publish := true // false after a wait: the read of step 3 comes first

	var waitedOn Holder // the holder e.onWait was last told of (Options.OnWait)
	toldWait := false   // whether e.onWait was told of one
	for {
		if publish {
			err := h.publish(ctx) // step 2
			if err == nil {
				return h, nil
			}
			if !errors.Is(err, errHeld) {
				return nil, err
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Step 3: read the lock; break it only if its holder is provably
		// dead; otherwise wait and try again. The watch is armed before
		// the read, so a release after the read wakes the wait.
		if time.Now().Before(deadline) {
			w.Arm()
		}
		held, err := e.readLock(fsys, n.lock)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !publish:
			publish = true
			continue // gone since the wait: publish now
		case errors.Is(err, fs.ErrNotExist) && !missed:
			missed = true
			continue // released meanwhile: publish again at once
		case errors.Is(err, fs.ErrNotExist):
			// Twice: a name that link() and open(O_EXCL) see but a read
			// does not (a dangling symlink on an FS that cannot lstat).
			// Wait, as for any lock that cannot be read.
			held = Holder{State: StateUnreadable, Mode: fs.ModeIrregular}
		case err != nil:
			return nil, err
		default:
			missed = false
		}
		publish = true
		var busy *ClaimOwner
		if held.State == StateDead {
			out, err := e.breakLock(fsys, n, &h.cls, held, breakAuto)
			if err != nil {
				return nil, err
			}
			if out.result == breakDone {
				h.noteEarlierBoot(held)
				ierr := e.incident(fsys, n, EventBreak, held, 0) // a record only: the break is done
				if e.onBreak != nil {
					e.onBreak(n.lock, held) // the one automatic break, done
				}
				e.tellIncident(n.lock, EventBreak, ierr)
			}
			if out.result == breakBusy {
				busy = &out.busy
			} else if atOnce < maxAtOnce || time.Now().Before(deadline) {
				// Broken, changed or gone: publish again at once. Past
				// the deadline only a few times, so that a lock that keeps
				// changing cannot keep a writer with no time left.
				atOnce++
				continue
			}
		}
		if !time.Now().Before(deadline) {
			te := &TimeoutError{Lock: n.lock, Waited: time.Since(start), Holder: held, Claim: busy}
			if e.policy != policy.SingleFlight.String() {
				// single_flight's held lock is an ordinary result, no incident.
				te.Incident = e.incident(fsys, n, EventTimeout, held, te.Waited)
			}
			return nil, te
		}
		atOnce = 0
		if e.onWait != nil && held.State != StateDead && (!toldWait || !sameLock(held, waitedOn)) {
			e.onWait(n.lock, held, deadline) // once per holder waited on
			waitedOn, toldWait = held, true
		}
		woken, err := w.Wait(ctx, time.Until(deadline), held.Token)
		if err != nil {
			return nil, err
		}
		// After a wait the lock is read first, and published only when it
		// is gone: a herd of waiters woken by one release does not each
		// write and remove a pending file while the new holder holds. The
		// head of the wait queue is the one waiter a release wakes: woken
		// by its watch, or just made the head, it publishes at once (on
		// EEXIST it reads, with the watch armed again before the read, as
		// after any publish).
		publish = woken && w.Head()
	}
}

// maxAtOnce bounds the tries at once past the deadline.
const maxAtOnce = 3

// sleep waits d, or less when ctx ends (then it returns ctx's error).
func (e *env) sleep(ctx context.Context, d time.Duration) error { return wake.Sleep(ctx, d) }

// recordFor returns the lock's content but acquiredAt, claiming the kernel
// lock on the file of key when claim is set; made again only when the
// claim or the key changes.
func (h *Hold) recordFor(claim bool, key vfs.FileKey) recordAt {
	if h.record == nil || h.recordClaim != claim || h.recordKey != key {
		var kernel *vfs.FileKey
		if claim {
			kernel = &key
		}
		h.record = record{PID: h.n.pid, Hostname: h.e.host.Hostname(), Token: h.token}.
			withIdentity(h.e.selfIdentity(), kernel).
			withLabels(LockID(h.n.target), h.e.agent, h.e.operation, h.e.policy).template()
		h.recordClaim, h.recordKey = claim, key
	}
	return h.record
}

// publish makes the lock appear whole or not at all (spec: Acquire step 2),
// or reports errHeld when the name exists. Without hard links it is the
// directory publish (publishDir) unless the spec's exclusive create is
// selected (Options.ExclusiveCreate), which leaves an empty lock for the
// moment between its create and its write (rows R14, R29). The file that becomes the lock
// is held with an exclusive kernel lock from before its content is written
// to the end of the hold (kernel.go), and its content says so.
func (h *Hold) publish(ctx context.Context) error {
	e, fsys, n := h.e, h.fsys, h.n
	if h.cls != classNoLinks {
		pending, content, err := h.writePending(e.now())
		if err != nil {
			return err
		}
		e.step(StepAcquirePending)
		var lerr error
		if h.cls == classNoLinks {
			lerr = errNoLinks // learned by the pending file's first link() (linkedKernelLock)
		} else {
			lerr = fsys.Link(pending, n.lock)
		}
		switch {
		case lerr == nil:
			h.cls = classLinks
			h.content = content
			// The pending file is the lock now, and its kernel lock the
			// hold's where the record claims it; its name goes as the
			// spec says. Where the record does not (a kernel lock kept per
			// name, as on ntfs-3g: linkedKernelLock), the pending handle
			// is closed first, so that FUSE shows no .fuse_hidden* name,
			// and the hold takes the lock name's own (holdLockName).
			if h.pending.claim {
				h.kernel, h.pending.kernel = h.pending.kernel, nil
			} else if h.pending.kernel != nil {
				h.kernel = holdLockName(fsys, n.lock, h.pending.key)
			}
			_ = h.dropPending()
			e.step(StepAcquirePublished)
			return nil
		case errors.Is(lerr, fs.ErrExist):
			_ = h.dropPending()
			return errHeld
		case errors.Is(lerr, fs.ErrNotExist):
			_ = h.dropPending()
			return lerr
		}
		// Any other link() error: no hard links, for the rest of this hold.
		h.cls = classNoLinks
		if err := h.dropPending(); err != nil {
			return fmt.Errorf("locking: removing the pending file after link() failed (%v): %w", lerr, err)
		}
	}
	if !e.exclusive {
		return h.publishDir(ctx)
	}
	f, err := fsys.OpenFile(n.lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return errHeld
	}
	if err != nil {
		return err
	}
	e.step(StepAcquireOpened)
	k, key, kerr := e.holdKernelLock(fsys, f, n.lock)
	if errors.Is(kerr, errNameContested) {
		// A judge's probe kept it: go on without a kernel lock (the
		// record claims none) rather than leave an empty lock behind.
		kerr = nil
	}
	if kerr != nil {
		// errNameLost: the empty lock just made was removed (unlock
		// --force); the name is free again, or another's.
		f.Close()
		return errHeld
	}
	content := h.recordFor(k != nil, key).at(e.now())
	_, werr := f.Write(content)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		// Nothing is unlinked: what is left is a parsed lock of this
		// process (broken once it exits) or an empty one (a block that
		// unlock --force clears). Spec: Acquire step 2; row R14.
		if k != nil {
			k.Close()
		}
		return fmt.Errorf("locking: publishing %s: %w", n.lock, errors.Join(werr, cerr))
	}
	h.content = content
	h.kernel = k
	e.step(StepAcquirePublished)
	return nil
}
