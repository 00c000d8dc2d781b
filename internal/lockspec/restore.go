package lockspec

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/pa-toolkit/pa/vfs"
)

// Restorer decides, for the complete temp file data that a provably dead
// writer left beside a guarded file that is missing, what to restore in
// its place: the content the file had before that writer's commit, and a
// rank (higher is newer: a spawn-log's nextId), or ok false when data is
// not such a file (torn, not parsing, nothing to restore). With whole,
// data is a keep file (name.keep-...), the file whole as it was with no
// change of its writer's (the commit of a settle or of a restore: a power
// cut inside its rename can leave only it): the content is data itself,
// when it is such a file, ranked on the same scale (a spawn-log's nextId).
// The content is decided from data alone, never from file times.
type Restorer func(data []byte, whole bool) (content []byte, rank uint64, ok bool)

// Why: a power cut inside the commit's rename on exFAT (the driver writes
// the new entry, removes the old, removes the replaced target's, with no
// barrier) can leave neither the guarded file nor its new name, only the
// dead writer's complete temp file, which holds every record the file had
// and the writer's own. The sweep would remove it, and every record with
// it (conformance/powercut). The writer's own change was never reported
// (a commit reports once its folder is synced, and a synced rename is on
// the disk), so the Restorer gives the content before it.

// restoreMissing runs under the hold, before the guarded file is read,
// when it is missing and a Restorer is set: among the temp files of the
// guarded file whose owner is on this host and provably dead (by its pid,
// or as a broken holder of an earlier boot: tempOwnerDead; and, where
// this process takes kernel locks, whose kernel lock is free), the one the
// Restorer ranks highest is committed as the guarded file, with the
// commit's own temp file, sync, fence, rename and folder sync, and the
// observer is told. Then the dead writers' temp files it read are
// removed, as the sweep would have removed them. It reports whether it
// restored; an error is the commit's (and every temp file stays).
func (h *Hold) restoreMissing() (bool, error) {
	return h.restore(h.n, h.e.restore)
}

// RestoreMissing is the restore of [SetRestore] for another file this hold
// writes with [Hold.WriteFenced] (the board): when name is missing, the
// complete temp file of its dead writer that r ranks highest is committed
// in its place, behind the fence, and the observer of [SetRestore] is
// told; the dead writers' temp files go. Call it before name is read. It
// reports whether it restored; errors: ErrLockLost (the fence refused),
// the FS's (every temp file stays).
func (h *Hold) RestoreMissing(name string, r Restorer) (bool, error) {
	if err := checkName(name); err != nil {
		return false, err
	}
	if h.released {
		return false, fmt.Errorf("locking: restore of %s after release: %w", name, ErrLockLost)
	}
	if _, err := h.fsys.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return h.restore(newNames(name, HostHash(h.e.host.Hostname()), h.e.host.PID()), r)
}

// restore is restoreMissing and RestoreMissing for the file n names.
func (h *Hold) restore(n names, r Restorer) (bool, error) {
	e, fsys := h.e, h.fsys
	entries, err := vfs.ReadDirPrefix(fsys, n.dir, []string{n.tempP, n.keepP})
	if err != nil {
		return false, nil
	}
	var best []byte
	var bestRank uint64
	from := ""
	var dead []string // the temp files of dead writers: removed once the hold is done with them
	for _, de := range entries {
		if de.IsDir() {
			continue
		}
		kind, o := n.classify(de.Name())
		if kind != ownerInName || !h.tempOwnerDead(o, n) {
			continue
		}
		name := path.Join(n.dir, de.Name())
		data, ok := e.readFreed(fsys, name)
		if !ok {
			continue
		}
		dead = append(dead, name)
		content, rank, ok := r(data, strings.HasPrefix(de.Name(), n.keepP))
		if ok && (from == "" || rank > bestRank) {
			best, bestRank, from = content, rank, name
		}
	}
	if from != "" {
		if err := h.writeFenced(n.target, [][]byte{best}, commitWhole, nil); err != nil {
			return false, err // every temp file stays: the next hold tries again
		}
		if e.onRestore != nil {
			e.onRestore(n.target, from)
		}
	}
	for _, name := range dead {
		e.removeLeftover(fsys, n, name, noStep) // as the sweep would have
	}
	return from != "", nil
}

// readFreed reads name whole, unless its kernel lock is held by another
// handle (a live writer in another pid namespace, whose pid this process
// reads as gone).
func (e *env) readFreed(fsys vfs.FS, name string) ([]byte, bool) {
	if e.kernelLocks() {
		f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
		if err != nil {
			return nil, false
		}
		lerr := vfs.TryLock(f, name)
		f.Close()
		if heldElsewhere(lerr) {
			return nil, false
		}
	}
	data, _, err := vfs.ReadFile(fsys, name, 0)
	return data, err == nil
}

// keptForRestore reports whether the sweep leaves the temp or keep file
// base of n's guarded file for restoreMissing: a Restorer is set and the
// guarded file is missing. missing caches the guarded file's Lstat for one
// sweep.
func (e *env) keptForRestore(fsys vfs.FS, n names, base string, missing *int) bool {
	if e.restore == nil || !strings.HasPrefix(base, n.tempP) && !strings.HasPrefix(base, n.keepP) {
		return false
	}
	if *missing == 0 {
		*missing = 2
		if _, err := fsys.Lstat(n.target); errors.Is(err, fs.ErrNotExist) {
			*missing = 1
		}
	}
	return *missing == 1
}
