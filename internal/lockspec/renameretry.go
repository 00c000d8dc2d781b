package lockspec

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/internal/wake"
	"github.com/pa-toolkit/pa/vfs"
)

// transientRename reports whether a rename's error may pass by itself
// while the new name is absent: on Windows an antivirus scan or a
// directory pending deletion refuses a rename for a moment (EPERM, EACCES,
// EBUSY: ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION,
// ERROR_LOCK_VIOLATION); no such error is transient elsewhere. A variable,
// so that a test can make an error transient on any system.
var transientRename = transientRenameError

// transientRenameWait bounds the tries of a put-back's rename, which has
// no acquisition deadline: as long as cmd/go's robustio retries such
// errors on Windows.
const transientRenameWait = 2 * time.Second

// renameAbsentUntil is renameAbsent (mark as it says), tried again while it fails with a
// transient error (transientRename) and new is still absent, until
// deadline: the directory publish on Windows, where a rename refused for a
// moment would otherwise fail the acquisition. Past the deadline it
// returns the first such error; when ctx ends first, ctx's error. Any
// other outcome (done, new exists, another error) is returned at once.
func renameAbsentUntil(ctx context.Context, fsys vfs.FS, old, new, mark string, deadline time.Time) error {
	var first error
	wait := time.Millisecond
	for {
		err := renameAbsent(fsys, old, new, mark)
		if err == nil || errors.Is(err, fs.ErrExist) || !transientRename(err) {
			return err
		}
		if first == nil {
			first = err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return first
		}
		if err := wake.Sleep(ctx, min(wait, left)); err != nil {
			return err
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}
