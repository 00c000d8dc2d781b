package locking

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

	// 1. Claim the judged bytes, then list the folder.
	key := claimKey(judged.data)
	attempt, err := e.newAttempt()
	if err != nil {
		return breakOutcome{}, err
	}
	claim := n.claim(key, attempt)
	claimBody, _ := json.Marshal(map[string]any{
		"pid": n.pid, "hostname": e.host.Hostname(), "at": e.now().UTC().Format(timeLayout),
	})
	if err := vfs.WriteFileExclusive(fsys, claim, claimBody, 0o644, false); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			_ = fsys.Remove(claim)
		}
		return breakOutcome{}, err
	}
	defer fsys.Remove(claim) // 5. Remove the claim, whatever happened.

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
		if kind == ownerInName && o.hostHash == n.host && !e.host.Alive(o.pid) {
			// A dead breaker's claim: its name is unique, so nothing can
			// re-create it.
			_ = fsys.Remove(path.Join(n.dir, other))
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
	e.step(StepBreakConfirmed)

	// 3. Move the lock to this attempt's own name.
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
		if err := fsys.Remove(moved); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
// match sees the bytes and the size only: the moved lock is not judged
// (no parse, no liveness check), and an irregular file has no bytes.
func (e *env) movedIs(fsys vfs.FS, name string, match func(Holder) bool) (bool, error) {
	lf, err := readLockBytes(fsys, name)
	if err != nil {
		return false, err
	}
	h := Holder{data: lf.data, Size: lf.size}
	if lf.irregular != nil {
		h.Mode = lf.irregular.Mode().Type()
	}
	return match(h), nil
}
