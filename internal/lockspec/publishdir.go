package lockspec

import (
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
func (h *Hold) publishDir() error {
	e, fsys, n := h.e, h.fsys, h.n
	attempt, err := e.newAttempt()
	if err != nil {
		return err
	}
	stage := n.staged(attempt)
	if err := fsys.Mkdir(stage, 0o755); err != nil {
		return fmt.Errorf("locking: making the staging directory: %w", err)
	}
	marker := path.Join(stage, markerName(h.token))
	_, f, k, key, err := e.createHeld(fsys, func() (string, error) { return marker, nil })
	if err != nil {
		_ = fsys.Remove(stage)
		return fmt.Errorf("locking: staging the lock: %w", err)
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
	if err := renameAbsent(fsys, stage, n.lock); err != nil {
		drop()
		if errors.Is(err, fs.ErrExist) {
			return errHeld
		}
		return err
	}
	h.content, h.kernel, h.dirShape = content, k, true
	e.step(StepAcquirePublished)
	return nil
}
