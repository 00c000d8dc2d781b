package lockspec

import (
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// pendingFile is the pending file of one publish on a volume with hard
// links (spec: The steps, Acquire step 2): written whole, closed, then
// linked to the lock name, and removed after its link(), however that
// ends, so a publish leaves no name of its own behind. Its name carries
// the acquire's attempt token and its owner's pid, so a sweep leaves it
// while its owner lives and sweeps it once its owner is killed (row R28).
type pendingFile struct {
	name string
	// kernel holds the file's kernel lock (kernel.go), nil where the
	// volume has none; key is the file's key, which the record claims
	// when claim is set (the lock will be the lock name's too:
	// linkedKernelLock).
	kernel vfs.File
	key    vfs.FileKey
	claim  bool
}

// writePending makes the publish's pending file by an exclusive create,
// takes its kernel lock before its content is written (the content claims
// it), writes the lock's content with acquiredAt now and closes it. It
// returns the name and the content written. On an error the file is
// removed (it is this acquire's own).
func (h *Hold) writePending(now time.Time) (string, []byte, error) {
	newName := func() (string, error) {
		attempt, err := h.e.newAttempt()
		return h.n.pending(attempt), err
	}
	name, f, k, key, err := h.e.createHeld(h.fsys, newName)
	if err != nil {
		return "", nil, err
	}
	// The kernel lock holds the pending name against sweeps in any case;
	// the record claims it only where it will be the lock name's too.
	claim := false
	if k != nil {
		shared, lerr := h.e.linkedKernelLock(h.fsys, name, key, h.n.probe(name))
		switch {
		case lerr == nil:
			claim = shared
		case errors.Is(lerr, fs.ErrNotExist):
			k.Close()
			f.Close()
			_ = h.fsys.Remove(name)
			return "", nil, lerr // as the publish's own link() would
		case !errors.Is(lerr, fs.ErrExist):
			h.cls = classNoLinks // the hold's one failing link()
		}
	}
	h.pending = &pendingFile{name: name, kernel: k, key: key, claim: claim}
	content := h.recordFor(claim, key).at(now)
	n, err := f.Write(content)
	if err == nil && n != len(content) {
		err = io.ErrShortWrite // a Writer that breaks its contract: never link a torn record
	}
	// Synced before its link(): a power cut may land the link's folder
	// entry without the file's data, and an empty lock is a block that
	// no boot id in it can prove dead (conformance/powercut).
	if err == nil {
		err = f.Sync()
	}
	// Closed before its link(): a close that fails (a write-back error)
	// leaves the bytes in doubt, and nothing is linked.
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = h.dropPending()
		return "", nil, err
	}
	return name, content, nil
}

// dropPending removes the pending file, if any, its kernel lock's handle
// closed before the removal (a FUSE volume renames a file removed while
// open to a .fuse_hidden name instead). It reports the removal's error (a
// name already gone is not one).
func (h *Hold) dropPending() error {
	p := h.pending
	if p == nil {
		return nil
	}
	if p.kernel != nil {
		p.kernel.Close()
		p.kernel = nil
	}
	h.pending = nil
	if err := h.fsys.Remove(p.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
