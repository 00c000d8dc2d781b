package lockspec

import (
	"context"
	"time"

	"github.com/pa-toolkit/pa/internal/wake"
	"github.com/pa-toolkit/pa/vfs"
)

// DropKernelLock closes the handle that holds h's kernel lock, without a
// release: to the kernel, the holder has died (the lock stays under its
// name, its record still claiming the kernel lock, and no process holds
// it). For the tests of package locking_test.
func DropKernelLock(h *Hold) { h.dropKernel() }

// ForgetLinkedKernelLock forgets what linkedKernelLock learned of every
// device, so that a test's FS is asked again.
func ForgetLinkedKernelLock() { linksShareKernelLock.Clear() }

// SlowPollFor is the slow poll behind the head of the queue of a waiter
// whose poll interval is poll: one draw of its random time.
func SlowPollFor(poll time.Duration) time.Duration { return wake.New(nil, "", poll).SlowPoll() }

// Describe is h as locking's errors describe it (internal/display).
func Describe(h Holder) string { return Shown(h).Describe() }

// PartsFunc is a GatedFunc with no gate, for the tests of UpdateParts.
type PartsFunc func(current []byte, exists bool) ([][]byte, error)

// UpdateParts is Update with fn giving the new content in parts: what
// UpdateMapped does, with the file read and not mapped.
func UpdateParts(ctx context.Context, fsys vfs.FS, name string, fn PartsFunc, opts Options) error {
	return updateParts(ctx, fsys, name, func(current []byte, exists bool) ([][]byte, func() error, error) {
		parts, err := fn(current, exists)
		return parts, nil, err
	}, opts, false)
}

// SetTransientRename makes transient say which rename errors pass by
// themselves (Windows' behaviour, on any system) until restore is called.
func SetTransientRename(transient func(error) bool) (restore func()) {
	old := transientRename
	transientRename = transient
	return func() { transientRename = old }
}
