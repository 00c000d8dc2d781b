package lockspec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/pa-toolkit/pa/vfs"
)

// publishDir is the directory publish, on a volume without hard links
// (docs/spawn-log-lock.md, "The directory publish"): the record is written
// as <token>.json into a staging directory of this attempt's own
// (<lock>.staged-<host>-<pid>-<attempt>), with its kernel lock taken
// before it is written (kernel.go; the record claims it), the file and the
// directory synced (acquire:staged), and the directory renamed to the lock
// name in one step by a rename that never replaces (renameAbsent). The
// lock appears whole, with its owner, or not at all: no kill leaves an
// empty or torn lock. It reports errHeld when the lock name exists. The
// staging directory is removed whenever the publish does not land (the
// marker, then the directory: never recursive).
func (h *Hold) publishDir(ctx context.Context) error {
	e, fsys, n := h.e, h.fsys, h.n
	if lockNameTaken(fsys, n.lock) {
		return errHeld
	}
	stage, marker, f, k, key, err := h.stageMarker()
	if err != nil {
		return err
	}
	drop := func() {
		closeKernel(k) // before the removal (FUSE)
		_ = fsys.Remove(marker)
		_ = fsys.Remove(stage)
	}
	content := h.recordFor(k != nil, key).at(e.now())
	m, werr := f.Write(content)
	if werr == nil && m != len(content) {
		werr = io.ErrShortWrite // never publish a torn record
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = vfs.SyncDir(fsys, stage)
	}
	if werr != nil {
		drop()
		return fmt.Errorf("locking: staging %s: %w", n.lock, werr)
	}
	e.step(StepAcquireStaged)
	if err := renameAbsentUntil(ctx, fsys, stage, n.lock, markerName(h.token), h.deadline); err != nil {
		drop()
		if errors.Is(err, fs.ErrExist) {
			return errHeld
		}
		return err
	}
	// The marker must have gone with the directory: a sweep that moved it
	// out of the staging directory (its owner's pid gone as that sweep
	// sees it, and this writer's kernel lock not yet taken, or none on
	// this volume) would have left the lock an empty directory, a block.
	// That directory is this writer's own rename of a moment ago: it goes
	// (rmdir, only while empty), and the publish is tried again.
	if _, err := fsys.Lstat(path.Join(n.lock, markerName(h.token))); err != nil {
		closeKernel(k)
		if fi, lerr := fsys.Lstat(n.lock); lerr == nil && fi.IsDir() {
			_ = fsys.Remove(n.lock) // rmdir: only while empty, never another's file lock
		}
		return errHeld
	}
	h.content, h.kernel, h.dirShape = content, k, true
	e.step(StepAcquirePublished)
	return nil
}

// stageMarker makes the staging directory of a fresh attempt and the
// marker in it, held (createHeld). A staging directory is swept while it is
// empty, or while its marker's kernel lock is not yet taken, by a sweep to
// which this process's pid is gone (another pid namespace's: nothing
// proves its owner alive there, and an empty directory holds nothing to
// lose); the marker's create then finds no directory, and a new attempt
// stages again, at most maxNamesLost times.
func (h *Hold) stageMarker() (stage, marker string, f, k vfs.File, key vfs.FileKey, err error) {
	e, fsys, n := h.e, h.fsys, h.n
	for lost := 0; ; lost++ {
		attempt, err := e.newAttempt()
		if err != nil {
			return "", "", nil, nil, key, err
		}
		stage = n.staged(attempt)
		if err := fsys.Mkdir(stage, 0o755); err != nil {
			return "", "", nil, nil, key, fmt.Errorf("locking: making the staging directory: %w", err)
		}
		marker = path.Join(stage, markerName(h.token))
		_, f, k, key, err = e.createHeld(fsys, func() (string, error) { return marker, nil })
		if err == nil {
			return stage, marker, f, k, key, nil
		}
		_ = fsys.Remove(stage)
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNameLost) || lost == maxNamesLost {
			return "", "", nil, nil, key, fmt.Errorf("locking: staging the lock: %w", err)
		}
	}
}

// lockNameTaken reports whether something is at the lock name, by one
// Lstat: a publish that finds it taken is held (errHeld) without staging a
// record that its rename would only refuse. It decides nothing alone: a
// name that appears after it is refused by the no-replace rename, and one
// that goes after it is read as gone by the acquisition, which publishes
// again at once. Under contention a refused directory publish otherwise
// costs a staging directory, a marker, its kernel lock, two syncs, a
// rename and three removals (about 25 system calls) where this costs one:
// bench/RESULTS.md, "Contended", waiters' CPU without hard links.
func lockNameTaken(fsys vfs.FS, lock string) bool {
	_, err := fsys.Lstat(lock)
	return err == nil
}
