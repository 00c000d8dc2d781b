package lockspec

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/pa-toolkit/pa/vfs"
)

// breakMode is who runs a break: the automatic break of a provably dead
// holder, unlock without force (the same checks) or unlock --force (the
// bytes check only, and other breakers' claims do not stop it).
type breakMode int

const (
	breakAuto breakMode = iota
	breakUnlock
	breakForce
)

// breakResult is how a break ended.
type breakResult int

const (
	breakDone    breakResult = iota // the judged lock was moved and removed
	breakBusy                       // another breaker's live claim: backed off
	breakChanged                    // the lock is not the one judged: left alone (or put back)
	breakGone                       // no lock under the name any more
)

type breakOutcome struct {
	result breakResult
	busy   ClaimOwner // for breakBusy
}

// breakLock runs the spec's break on the lock judged (spec: The steps, Break;
// rows R04, R09, R10, R11, R19, R21). cls is the class the caller's hold has
// learned, updated by a put-back's link().
func (e *env) breakLock(fsys vfs.FS, n names, cls *class, judged Holder, mode breakMode) (breakOutcome, error) {
	e.step(StepBreakJudged)

	// 1. Claim the judged bytes, then list the folder. The claim is held
	// with its kernel lock while it stands (kernel.go).
	key := claimKey(judged.data)
	claim, f, k, fkey, err := e.createHeld(fsys, func() (string, error) {
		attempt, err := e.newAttempt()
		return n.claim(key, attempt), err
	})
	if err != nil {
		return breakOutcome{}, err
	}
	// The claim names the kernel lock it is held with, as a lock's record
	// does: a claim that names it while it is free is a dead breaker's,
	// whatever its pid says (removeFreed).
	body := map[string]any{"pid": n.pid, "hostname": e.host.Hostname(), "at": e.now().UTC().Format(timeLayout)}
	if k != nil {
		body["kernelLock"] = kernelLockJSON{Dev: fkey.Dev, Ino: fkey.Ino}
	}
	claimBody, _ := json.Marshal(body)
	_, werr := f.Write(claimBody)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	defer func() { // 5. Remove the claim, whatever happened.
		closeKernel(k)
		_ = fsys.Remove(claim)
	}()
	if werr != nil {
		return breakOutcome{}, werr
	}

	prefix := path.Base(n.claimPrefix(key))
	entries, err := vfs.ReadDirPrefix(fsys, n.dir, []string{prefix})
	if err != nil {
		return breakOutcome{}, err
	}
	for _, de := range entries {
		other := de.Name()
		if !strings.HasPrefix(other, prefix) || other == path.Base(claim) {
			continue
		}
		kind, o := n.classify(other)
		if kind == ownerInName && o.hostHash == n.host && (!e.host.Alive(o.pid) &&
			e.removeLeftover(fsys, n, path.Join(n.dir, other), noStep) ||
			e.removeFreed(fsys, n, path.Join(n.dir, other))) {
			// A dead breaker's claim: its name is unique, so nothing can
			// re-create it.
			continue
		}
		if mode == breakForce {
			continue // --force does not stop for other breakers
		}
		return breakOutcome{result: breakBusy, busy: ClaimOwner{Claim: path.Join(n.dir, other), HostHash: o.hostHash, PID: o.pid}}, nil
	}
	e.step(StepBreakClaimed)

	// 2. Confirm: the same bytes and, unless forced, still provably dead.
	current, err := e.readLock(fsys, n.lock)
	if errors.Is(err, fs.ErrNotExist) {
		return breakOutcome{result: breakGone}, nil
	}
	if err != nil {
		return breakOutcome{}, err
	}
	if !sameLock(current, judged) || mode != breakForce && current.State != StateDead {
		return breakOutcome{result: breakChanged}, nil
	}
	// The judged lock's kernel lock is taken for the rest of the break, so
	// that the moved name is held as every name of a live owner is. One
	// that another process holds is no dead holder's (unless forced).
	held, ok := e.holdMoved(fsys, lockFileName(n.lock, current), mode)
	if !ok {
		return breakOutcome{result: breakChanged}, nil
	}
	defer closeKernel(held)
	e.step(StepBreakConfirmed)

	// 3. Move the lock to this attempt's own name.
	attempt, err := e.newAttempt()
	if err != nil {
		return breakOutcome{}, err
	}
	moved := n.broken(attempt)
	if err := fsys.Rename(n.lock, moved); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return breakOutcome{result: breakGone}, nil
		}
		return breakOutcome{}, err
	}
	e.step(StepBreakRenamed)

	// 4. Check the moved file: remove it, or put it back.
	same, err := e.movedIs(fsys, moved, func(h Holder) bool { return sameLock(h, judged) })
	if err != nil {
		return breakOutcome{}, err
	}
	if same {
		closeKernel(held) // before the removal (FUSE)
		held = nil
		if err := removeMoved(fsys, moved, judged, e.asideFor(n)); err != nil {
			return breakOutcome{}, err
		}
		e.step(StepBreakRemoved)
		return breakOutcome{result: breakDone}, nil
	}
	e.step(StepBreakMismatch)
	if err := e.putBack(fsys, n, cls, moved, StepBreakPutBackOpened, StepBreakPutBack); err != nil {
		return breakOutcome{}, err
	}
	return breakOutcome{result: breakChanged}, nil
}

// movedIs reads a lock just moved to name and reports whether match holds.
// match sees the bytes, the size and the shape only (movedHolder): the
// moved lock is not judged (no parse, no liveness check), and an
// irregular file has no bytes.
func (e *env) movedIs(fsys vfs.FS, name string, match func(Holder) bool) (bool, error) {
	lf, err := readLockBytes(fsys, name)
	if err != nil {
		return false, err
	}
	return match(movedHolder(lf)), nil
}

// holdMoved takes the kernel lock of the lock a break is about to move
// (where this process takes kernel locks and the volume has them): of
// lock, the lock's file (lockFileName: the marker of a directory lock;
// "" for a directory with none, which holds nothing). It
// returns the handle to close once the moved name is gone, and ok=false
// when another process holds that lock past kernelLockPatience: a holder
// alive after all (or a judge that stalls), so an automatic break or an
// unlock without force stops. With force it goes on without it: the
// holder's own kernel lock then holds the moved name.
func (e *env) holdMoved(fsys vfs.FS, lock string, mode breakMode) (vfs.File, bool) {
	if !e.kernelLocks() || lock == "" {
		return nil, true
	}
	k, err := fsys.OpenFile(lock, vfs.ReadFlags, 0)
	if err != nil {
		return nil, true // the rename below finds what is there
	}
	if lockPatiently(k, lock) {
		return k, true
	}
	heldByAnother := heldElsewhere(vfs.TryLock(k, lock))
	k.Close()
	return nil, !heldByAnother || mode == breakForce
}
