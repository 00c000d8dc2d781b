package lockspec

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// Hold is one hold of a lock, from [Acquire] to [Hold.Release]. It is not
// safe for concurrent use.
type Hold struct {
	fsys vfs.FS
	e    *env
	// deadline is the acquisition's (real clock): a publish refused for a
	// moment (Windows: renameAbsentUntil) is tried again until then.
	deadline time.Time
	n        names
	token    string
	content  []byte   // the lock's bytes as published
	record   recordAt // the lock's bytes but acquiredAt (recordFor)
	// recordClaim and recordKey are the kernel-lock claim record was made
	// with.
	recordClaim bool
	recordKey   vfs.FileKey
	// kernel holds the kernel lock of the lock's file for the whole hold
	// (kernel.go); nil where the volume has none.
	kernel   vfs.File
	cls      class
	dirShape bool // the lock was published as a directory (publishdir.go)
	released bool
	unpin    func() error // lets go of the folder the hold keeps open
	pending  *pendingFile // the publish's pending file, from its create to its removal
	// earlierBoot are the pids of this host's holders of an earlier boot
	// whose locks the acquisition broke: their temp files are a dead
	// writer's whatever the pid means now (earlierboot.go).
	earlierBoot []int
	// doubled are the files this hold found listed more than once in
	// their folder (a power cut inside an exFAT rename), unlisted those
	// whose folder it could not list: the hold settles them before it
	// reads or writes them (doubled.go).
	doubled, unlisted []string
}

// Token returns the hold's 24-hex token, the one the fence checks.
func (h *Hold) Token() string { return h.token }

// Lock returns the lock's name in its FS.
func (h *Hold) Lock() string { return h.n.lock }

// HardLinks reports whether this hold published its lock by link() (true)
// or, on a volume that refused link(), by the directory publish or an
// exclusive create (false).
func (h *Hold) HardLinks() bool { return h.cls == classLinks }

// Directory reports whether this hold published its lock as a directory
// (the directory publish, on a volume that refused link(); false with
// hard links and with [Options].ExclusiveCreate).
func (h *Hold) Directory() bool { return h.dirShape }

// isOwn reports whether m, a lock just moved, is this hold's own: its
// bytes, in its shape, and for a directory under its token's marker.
func (h *Hold) isOwn(m Holder) bool {
	return m.Mode == 0 && m.Directory == h.dirShape && bytes.Equal(m.data, h.content) &&
		(!m.Directory || m.marker == markerName(h.token))
}

// Fence re-reads the lock and checks that it still carries this hold's token
// (spec: Guarantees, 1). It returns nil when it does, ErrLockLost when the
// lock is gone or carries another token, and the FS's error when the lock
// cannot be read (then the hold cannot tell, and must not commit).
func (h *Hold) Fence() error {
	lf, err := readLockBytes(h.fsys, h.n.lock)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrLockLost
	}
	if err != nil {
		return fmt.Errorf("locking: fence: %w", err)
	}
	if lf.dir != h.dirShape || lf.dir && lf.marker != markerName(h.token) {
		return ErrLockLost // another shape, or a marker not named after this token
	}
	if lf.irregular == nil && bytes.Equal(lf.data, h.content) {
		return nil // the very bytes this hold published: its token
	}
	cur := h.e.judge(lf.data, lf.size, lf.fileTime, nil)
	if lf.irregular != nil || cur.State == StateUnreadable || cur.Token != h.token {
		return ErrLockLost
	}
	return nil
}

// Commit writes data to the guarded file under this hold (spec: The steps,
// Hold and commit): the temp file name.tmp-<host>-<pid>-<attempt>, synced
// (commit:temp-written), the fence (commit:fenced), the rename over the file
// (commit:renamed), then a sync of the folder where the FS allows. data is
// the new content in parts, written one after the other into the temp file
// (the file's content is their concatenation; none is copied, so a part may
// be a slice of what was read; no part: an empty file). It returns
// ErrLockLost, with nothing committed and the temp file removed, when the
// fence refuses, and a *NotSyncedError when the rename landed but the folder
// sync failed (the data is in the file: never commit it again). When a
// part's write fails, nothing is committed and the temp file is removed.
//
// A file its folder listed twice at the acquire (a power cut inside an
// exFAT rename over it) was settled then, before any read (doubled.go).
func (h *Hold) Commit(data ...[]byte) error {
	return h.writeFenced(h.n.target, data, commitGuarded, nil)
}

// WriteFenced writes data to another file, name, while this hold is kept:
// its own temp file beside it (name.tmp-<host>-<pid>-<attempt>, synced), the
// same fence before its rename, then a sync of its folder (spec: Hold and
// commit, the board write). data is the content in parts, as for
// [Hold.Commit]. It returns ErrLockLost, writing nothing, when the fence
// refuses, a *NotSyncedError when the rename landed but the folder sync
// failed, and an error matching [ErrReservedName], writing nothing, when
// name is another file's lock or a name beside one. No step is reported. The acquire's sweep never touches its temp
// files (they are beside name, not the lock); WriteFenced itself removes
// those of name's whose owner is on this host and provably dead before it
// writes (sweepTemps); and when its folder lists name more than once (a
// power cut inside an exFAT rename), the extra entries go after the fence,
// right before the rename (doubled.go), an error of theirs writing nothing.
func (h *Hold) WriteFenced(name string, data ...[]byte) error {
	if err := checkGuarded(name); err != nil {
		return err
	}
	if !h.released {
		h.sweepTemps(name)
	}
	return h.writeFenced(name, data, commitOther, nil)
}

// commitMode is what a writeFenced writes.
type commitMode int

const (
	// commitGuarded: the hold's commit of its guarded file (Commit,
	// Update): its steps are reported.
	commitGuarded commitMode = iota
	// commitOther: another file under the hold (WriteFenced: the board).
	commitOther
	// commitWhole: a file whole as it was, with no change of this hold's
	// (the settle of a doubled name, a restore): its temp file is a keep
	// file (name.keep-<host>-<pid>-<attempt>), which a later restore
	// commits whole, and once an entry of a doubled name is removed its
	// rename is always tried, the keep file never dropped (doubled.go).
	commitWhole
)

// writeFenced is the temp file, the fence and the rename of Commit,
// WriteFenced and the whole-copy commits (mode), the parts written in
// order. gate, when not nil, is called once the temp file is written and
// synced, before the fence: its error ends the write with the temp file
// removed and nothing renamed.
func (h *Hold) writeFenced(name string, parts [][]byte, mode commitMode, gate func() error) error {
	if h.released {
		return fmt.Errorf("locking: write of %s after release: %w", name, ErrLockLost)
	}
	step := func(s Step) {
		if mode == commitGuarded {
			h.e.step(s)
		}
	}
	kind := ".tmp-"
	if mode == commitWhole {
		kind = ".keep-"
	}
	// The temp file is held with its kernel lock until the rename has put
	// it in place (kernel.go).
	tmp, f, k, _, err := h.e.createHeld(h.fsys, func() (string, error) {
		attempt, err := h.e.newAttempt()
		return name + kind + h.n.owned(attempt), err
	})
	if err != nil {
		return err
	}
	drop := func() {
		closeKernel(k)
		_ = h.fsys.Remove(tmp)
	}
	if err := writeParts(f, parts); err != nil {
		drop()
		return err
	}
	step(StepCommitTempWritten)
	if gate != nil {
		if err := gate(); err != nil {
			drop()
			return err
		}
	}
	if err := h.Fence(); err != nil {
		drop()
		return err
	}
	step(StepCommitFenced)
	removed, rerr := h.removeExtraEntries(name)
	// A whole copy goes back under the name once an entry went, even when
	// a later removal failed: it is what readers were shown (doubled.go).
	if rerr != nil && (mode != commitWhole || removed == 0) {
		drop()
		return rerr
	}
	err = h.fsys.Rename(tmp, name)
	closeKernel(k)
	if err != nil {
		if mode != commitWhole || removed == 0 {
			_ = h.fsys.Remove(tmp)
		} // else the keep file stays, for a restore
		return errors.Join(rerr, err)
	}
	if removed > 0 {
		h.tellDoubled(name, removed)
	}
	step(StepCommitRenamed)
	if err := vfs.SyncDir(h.fsys, path.Dir(name)); err != nil {
		if rerr != nil {
			return errors.Join(rerr, err)
		}
		return &NotSyncedError{Name: name, Err: err} // landed: never repeat it
	}
	return rerr
}

// Release ends the hold (spec: The steps, Release): it renames the lock to
// this attempt's own broken name and checks the moved bytes; its own are
// removed, anyone else's are put back by exclusive create. A release never
// unlinks the lock name. It returns nil when the hold's own lock was
// released, ErrLockLost when the lock was gone or was another (put back, or
// dropped when the name was taken meanwhile), and the FS's error otherwise.
// It closes the lock's folder, which the hold keeps open from Acquire on
// where the FS can ([vfs.PinDir]). A second call returns nil.
func (h *Hold) Release() error {
	if h.released {
		return nil
	}
	h.released = true
	if h.unpin != nil {
		defer h.unpin()
	}
	defer h.dropKernel()
	e, fsys, n := h.e, h.fsys, h.n
	attempt, err := e.newAttempt()
	if err != nil {
		return err
	}
	moved := n.broken(attempt)
	if err := fsys.Rename(n.lock, moved); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ErrLockLost
		}
		return err
	}
	e.step(StepReleaseRenamed)
	own, err := e.movedIs(fsys, moved, h.isOwn)
	// The lock's file is no longer under the lock's name: its kernel lock
	// goes now, before the moved name is removed (FUSE).
	h.dropKernel()
	if err != nil {
		return err
	}
	if own {
		if err := removeMoved(fsys, moved, Holder{Directory: h.dirShape, marker: markerName(h.token)}, e.asideFor(n)); err != nil {
			return err
		}
		e.step(StepReleaseRemoved)
		return nil
	}
	e.step(StepReleaseMismatch)
	if err := e.putBack(fsys, n, &h.cls, moved, StepReleasePutBackOpened, StepReleasePutBack); err != nil {
		return err
	}
	return ErrLockLost
}

// dropKernel lets go of the kernel lock of the hold's lock, if it holds
// one.
func (h *Hold) dropKernel() {
	if h.kernel != nil {
		h.kernel.Close()
		h.kernel = nil
	}
}

// writeParts writes parts in order to f, syncs and closes it: the temp
// file of a commit (vfs.WritePartsExclusive's steps, on a file already
// made). f is closed whatever happens.
func writeParts(f vfs.File, parts [][]byte) error {
	var err error
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
