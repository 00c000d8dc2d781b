package kernel

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/pa-toolkit/pa/vfs"
)

// Update runs one read-modify-write of name under its kernel lock: it
// acquires the lock ([Acquire], with o), reads name (nil when absent),
// calls fn with it, writes what fn returns to the temp file "<name>.tmp"
// with one write, syncs it, renames it over name, syncs the folder, and
// releases the lock. When fn fails nothing is written and its error is
// returned. The lock file is never removed; only the temp file is, when a
// step after its create fails.
//
// Errors: [Acquire]'s (*TimeoutError, *HeldError, *UnsupportedError,
// *LabelError, the context's); fn's, as it returned it; the file system's
// (*fs.PathError, *os.LinkError) for the read, the write, the syncs and
// the rename; after a commit that landed, only [Hold.Release]'s (wrapping
// [ErrRelease]): the new content is then in name, and the caller must not
// run the change again.
//
// Unlike locking.Update it lists no folder, so it does not look for a name
// listed twice: on exFAT a power cut inside the rename can leave name's
// folder holding two entries of it, and a later commit then replaces one
// and can be hidden behind the other (docs/spawn-log-lock.md, "A power
// cut").
func Update(ctx context.Context, fsys vfs.FS, name string, o Options, fn func(old []byte) ([]byte, error)) error {
	h, err := Acquire(ctx, fsys, name, o)
	if err != nil {
		return err
	}
	err = commit(fsys, name, fn)
	if rerr := h.Release(); err == nil {
		err = rerr
	}
	return err
}

// commit is Update's read-modify-write, under the lock.
func commit(fsys vfs.FS, name string, fn func(old []byte) ([]byte, error)) error {
	old, _, err := vfs.ReadFile(fsys, name, 0)
	if err != nil && !errorsIsNotExist(err) {
		return err
	}
	data, err := fn(old)
	if err != nil {
		return err
	}
	tmp := name + tmpSuffix
	if err := writeSynced(fsys, tmp, data); err != nil {
		_ = fsys.Remove(tmp)
		return err
	}
	if err := fsys.Rename(tmp, name); err != nil {
		_ = fsys.Remove(tmp)
		return err
	}
	return vfs.SyncDir(fsys, path.Dir(name))
}

// writeSynced creates (or truncates) name, writes data with one write and
// syncs it.
func writeSynced(fsys vfs.FS, name string, data []byte) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
