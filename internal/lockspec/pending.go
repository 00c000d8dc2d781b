package lockspec

import (
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// pendingFile is the pending file of one acquire on a volume with hard
// links (spec: The steps, Acquire step 2). When its link() fails with
// EEXIST it is kept, still open, while the acquire reads and waits: the
// next publish of the same acquire rewrites its bytes in place (the same
// length: only acquiredAt changes, at a fixed width) and links it again,
// so a writer that waits creates and removes one name per acquire, not
// one per try, and the publish that ends a wait makes no directory entry
// before its link(). Its name carries the acquire's own attempt token and
// its owner's pid, so while it waits a sweep leaves it (its owner is
// alive) and once its owner is killed the next acquire sweeps it (row
// R28). Every acquire ends with [pendingFile.drop], however it ends.
//
// A file that cannot be written in place (its FS's File has no
// io.WriterAt) is not kept: it is removed after each failed link(), and
// each publish writes a new one, as the spec's steps read.
type pendingFile struct {
	name string
	f    vfs.File    // open for writing; nil once closed
	at   io.WriterAt // f's, nil when f cannot be written in place
	size int         // the bytes written
	// kernel holds the file's kernel lock (kernel.go), nil where the
	// volume has none; key is the file's key, which the record claims
	// when claim is set (the lock will be the lock name's too:
	// linkedKernelLock).
	kernel vfs.File
	key    vfs.FileKey
	claim  bool
	// rewritten is set when the bytes were rewritten in place: the name
	// has lived through a wait, not only from its create to its link().
	rewritten bool
}

// writePending writes the lock's content, acquiredAt now, to the
// acquire's pending file: the kept one, rewritten in place, or a new one
// made by an exclusive create, whose kernel lock is taken before its
// content is written (the content claims it). It returns the name and the
// content written. On an error the file is closed and removed (it is this
// acquire's own).
func (h *Hold) writePending(now time.Time) (string, []byte, error) {
	if p := h.pending; p != nil && p.at != nil {
		content := h.recordFor(p.claim, p.key).at(now)
		if p.size != len(content) {
			return h.newPending(now)
		}
		n, err := p.at.WriteAt(content, 0)
		if err == nil && n != len(content) {
			err = io.ErrShortWrite // a WriterAt that breaks its contract: never link a torn record
		}
		if err == nil {
			p.rewritten = true
			return p.name, content, nil
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			_ = h.dropPending()
			return "", nil, err
		}
		// A wrapper whose file cannot be written in place after all: a new
		// pending file, and none kept from now on.
		h.noInPlace = true
	}
	return h.newPending(now)
}

// newPending makes a new pending file for writePending.
func (h *Hold) newPending(now time.Time) (string, []byte, error) {
	if err := h.dropPending(); err != nil { // a file of another length cannot be rewritten whole
		return "", nil, err
	}
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
		shared, lerr := h.e.linkedKernelLock(h.fsys, name, key, newName)
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
	h.pending = &pendingFile{name: name, f: f, kernel: k, key: key, claim: claim}
	content := h.recordFor(claim, key).at(now)
	if n, err := f.Write(content); err != nil || n != len(content) {
		_ = h.dropPending()
		if err == nil {
			err = io.ErrShortWrite // a Writer that breaks its contract: never link a torn record
		}
		return "", nil, err
	}
	at, _ := f.(io.WriterAt)
	if h.noInPlace {
		at = nil
	}
	if at == nil {
		if err := h.closePending(); err != nil {
			_ = h.dropPending()
			return "", nil, err
		}
	}
	h.pending.at, h.pending.size = at, len(content)
	return name, content, nil
}

// keepPending is called after the pending file's link() failed with
// EEXIST: a file that can be rewritten in place stays for the next try;
// any other is removed now.
func (h *Hold) keepPending() {
	if p := h.pending; p != nil && p.at == nil {
		h.dropPending()
	}
}

// closePending closes the pending file's handle, if open. It comes before
// any removal of its name: a FUSE volume renames a file removed while open
// to a .fuse_hidden name instead.
func (h *Hold) closePending() error {
	p := h.pending
	if p == nil || p.f == nil {
		return nil
	}
	err := p.f.Close()
	p.f, p.at = nil, nil
	return err
}

// dropPending closes and removes the pending file, if any, its kernel
// lock's handle closed before the removal too (FUSE). It reports the
// removal's error (a name already gone is not one).
func (h *Hold) dropPending() error {
	p := h.pending
	if p == nil {
		return nil
	}
	_ = h.closePending()
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
