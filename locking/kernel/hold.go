package kernel

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// Hold is a held kernel lock, from [Acquire] to [Hold.Release]. Its
// methods are safe for concurrent use.
type Hold struct {
	fsys   vfs.FS
	name   string
	f      vfs.File // the handle that holds the kernel lock
	layout layout
	now    func() time.Time

	mu       sync.Mutex
	rec      Record
	released bool
}

// ErrRelease is wrapped by [Hold.Release]'s error when the release time
// could not be written into the holder's record; the kernel lock is
// released all the same.
var ErrRelease = errors.New("release time not recorded")

// Record returns the holder's record as written.
func (h *Hold) Record() Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rec
}

// Name returns the protected file's name, as given to [Acquire].
func (h *Hold) Name() string { return h.name }

// Release writes the release time into the holder's record (design:
// "release time after a normal exit"), while the lock is still held, then
// releases the kernel lock by unlocking and closing its handle. It never
// removes the lock file (design: the kernel lock, not the file's
// existence, is ownership). A later Release does nothing and returns nil.
//
// Errors: one wrapping [ErrRelease] (and the write's error) when the
// release time could not be written; the kernel lock is released whatever
// the error.
func (h *Hold) Release() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return nil
	}
	h.released = true
	rec := h.rec
	rec.ReleasedAt = h.now().UTC().Format(timeLayout)
	werr := h.layout.writeRecord(h.fsys, h.name, h.f, rec)
	if werr == nil {
		h.rec = rec
	}
	uerr := h.unlock()
	if werr != nil {
		return errors.Join(fmt.Errorf("lock %s%s: %w: %w", h.name, lockSuffix, ErrRelease, werr), uerr)
	}
	return uerr
}

// unlock releases the kernel lock and closes its handle (closing alone
// would release it; the explicit unlock says so).
func (h *Hold) unlock() error {
	var uerr error
	if l, ok := h.f.(vfs.Locker); ok {
		uerr = l.Unlock()
	}
	if cerr := h.f.Close(); uerr == nil {
		uerr = cerr
	}
	return uerr
}
