package lockspec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/internal/mapread"
	"github.com/pa-toolkit/pa/vfs"
)

// UpdateFunc is locking.UpdateFunc: the new content from the current one,
// called again after a lost lock, so free of side effects.
type UpdateFunc func(current []byte, exists bool) ([]byte, error)

// Update is the whole read-modify-write of locking.Update (spec: The
// steps, Acquire then Hold and commit then Release; Guarantees).
func Update(ctx context.Context, fsys vfs.FS, name string, fn UpdateFunc, opts Options) error {
	return updateParts(ctx, fsys, name, func(current []byte, exists bool) ([][]byte, func() error, error) {
		next, err := fn(current, exists)
		if err != nil {
			return nil, nil, err
		}
		return [][]byte{next}, nil, nil
	}, opts, false)
}

// GatedFunc computes the new content of a file in parts, as an
// [UpdateFunc] computes it whole, and also returns gate (nil: none). The
// commit writes the parts one after the other (the file's content is their
// concatenation; see [Hold.Commit]); a part may be a slice of current (a
// splice of what was read, with no copy). The rules of an UpdateFunc hold:
// it may run more than once, each time on that hold's read, and its error
// ends the update with nothing written.
//
// The commit calls gate once its temp file is written and synced (after
// commit:temp-written), right before the fence: an error from gate ends the
// update as fn's would, with nothing committed and the temp file removed.
// It lets a check that must pass before the commit lands, but that the
// parts do not need, run while the temp file is written (`pa dispatch
// open` reads and checks the board then). fn runs again, with a fresh
// gate, after a lost lock; a gate is called at most once, and not at all
// when the temp file's write fails (fn's caller then waits for its work
// itself).
type GatedFunc func(current []byte, exists bool) (parts [][]byte, gate func() error, err error)

// UpdateMapped is [Update] with fn a [GatedFunc], the parts written into
// the commit's temp file in order, none copied, and the file read by
// mapping it where the FS can ([mapread.File]: osfs on Unix), which spares
// a large file's copy and page faults (bench: Growth); elsewhere it is
// read as Update reads it. current is then valid only until that
// hold's commit returns: fn and its gate must not keep it, nor any slice
// of it, past its parts (a part may be one). A fault touching current,
// because another process cut the file short in place meanwhile, ends the
// update with nothing committed: a *fs.PathError wrapping vfs.ErrChanged
// when fn (or anything in the hold's goroutine) touched the lost pages, or
// the write error of the commit's temp file when the kernel found them
// gone (the temp file is removed). The same steps, retries and errors as
// Update otherwise.
func UpdateMapped(ctx context.Context, fsys vfs.FS, name string, fn GatedFunc, opts Options) error {
	return updateParts(ctx, fsys, name, fn, opts, true)
}

// updateParts is Update with fn giving the new content in parts (and a
// gate), reading by a mapping when mapped.
func updateParts(ctx context.Context, fsys vfs.FS, name string, fn GatedFunc, opts Options, mapped bool) error {
	e := opts.env().forFS(fsys)
	start := time.Now()
	deadline := start.Add(e.timeout)
	for {
		h, err := e.acquire(ctx, fsys, name, deadline)
		if errors.Is(err, ErrLockLost) && time.Now().Before(deadline) && ctx.Err() == nil {
			continue // lost while it settled a doubled name (doubled.go): a fresh hold
		}
		if err != nil {
			return err
		}
		err = h.readModifyWrite(fn, mapped)
		var notSynced *NotSyncedError
		if errors.As(err, &notSynced) {
			err = nil // landed: go on as committed, report it at the end
		}
		if errors.Is(err, ErrLockLost) {
			_ = h.Release() // moves and puts back the lock that replaced ours
			if !time.Now().Before(deadline) {
				return fmt.Errorf("locking: %s: %w, and the %s timeout ran out before a fresh hold", name, ErrLockLost, display.Age(e.timeout))
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			_ = h.Release()
			return err
		}
		if e.afterCommit != nil {
			if err := e.afterCommit(h); err != nil {
				_ = h.Release()
				return err
			}
		}
		if err := h.Release(); err != nil && !errors.Is(err, ErrLockLost) {
			return fmt.Errorf("locking: %s is committed, but releasing its lock failed: %w", name, err)
		}
		if notSynced != nil {
			return notSynced
		}
		return nil
	}
}

// readModifyWrite is one hold's read, change and fenced commit: the file
// is read once (mapped: by mapread.File, unmapped once the commit returns,
// a fault in the mapping an error), and fn's parts are committed as they
// are, its gate called before the fence.
func (h *Hold) readModifyWrite(fn GatedFunc, mapped bool) error {
	var current []byte
	var err error
	if mapped {
		var release func()
		current, release, _, err = mapread.File(h.fsys, h.n.target)
		// Unmapped once the commit returns, by a goroutine of its own: the
		// old file, replaced by the commit, is freed by the kernel when its
		// last mapping goes, which takes a while for a large one (the
		// board write of pa dispatch runs meanwhile).
		defer func() { go release() }()
	} else {
		current, _, err = vfs.ReadFile(h.fsys, h.n.target, 0)
	}
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if !exists && h.e.restore != nil {
		restored, rerr := h.restoreMissing()
		if rerr != nil {
			return rerr
		}
		if restored {
			return h.readModifyWrite(fn, mapped) // read what was restored
		}
	}
	h.e.step(StepHoldRead)
	run := func() error {
		parts, gate, err := fn(current, exists)
		if err != nil {
			return err
		}
		return h.writeFenced(h.n.target, parts, commitGuarded, gate)
	}
	if !mapped {
		return run()
	}
	return mapread.Guard(h.n.target, current, run)
}
