package lockspec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// putBack returns a lock that a break or a release moved by mistake to the
// lock name, by exclusive create (spec: Break step 4; Release): link() with
// hard links, or an exclusive open and a copy of its bytes without them.
// When the lock name is taken the moved lock is dropped (its holder's fence
// finds the loss). Then the moved name is removed. opened is the step after
// the exclusive open, done after the put-back, before the moved name is
// removed. A directory lock is put back by a rename that never replaces
// (putBackDir), with no opened step.
func (e *env) putBack(fsys vfs.FS, n names, cls *class, moved string, opened, done Step) error {
	if fi, err := fsys.Lstat(moved); err == nil && fi.IsDir() {
		return e.putBackDir(fsys, n, moved, done)
	}
	if err := e.putBackCreate(fsys, n, cls, moved, opened); err != nil {
		return err
	}
	e.step(done)
	if err := fsys.Remove(moved); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (e *env) putBackCreate(fsys vfs.FS, n names, cls *class, moved string, opened Step) error {
	if *cls != classNoLinks {
		err := fsys.Link(moved, n.lock)
		switch {
		case err == nil:
			*cls = classLinks
			return nil
		case errors.Is(err, fs.ErrExist):
			return nil // the name is taken: the moved lock is dropped
		case errors.Is(err, fs.ErrNotExist):
			return err
		}
		*cls = classNoLinks
	}
	data, _, err := vfs.ReadFile(fsys, moved, MaxLockBytes)
	if err != nil {
		return fmt.Errorf("locking: reading the moved lock to put it back: %w", err)
	}
	f, err := fsys.OpenFile(n.lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil // the name is taken: the moved lock is dropped
	}
	if err != nil {
		return err
	}
	e.step(opened)
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		return fmt.Errorf("locking: putting back %s: %w", n.lock, errors.Join(werr, cerr))
	}
	return nil
}
