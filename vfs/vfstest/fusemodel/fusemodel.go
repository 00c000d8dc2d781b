package fusemodel

import (
	"fmt"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// FS is a [vfs.FS] that hides files still open when they are removed or
// renamed over. It is safe for concurrent use.
//
// It has no OpenRoot: it follows its open handles by their names in this
// FS, and a root opened on the wrapped FS would bypass it; the lock then
// keeps the names as they are ([vfs.PinDir]).
type FS struct {
	inner vfs.FS

	mu     sync.Mutex
	open   map[*File]string // each open handle and the name its file has now
	next   int              // the counter in hidden names
	hidden []string         // every hidden name made, in order
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
	_ vfs.WatchFS           = (*FS)(nil)
	_ vfs.QueueFS           = (*FS)(nil)
)

// New wraps inner.
func New(inner vfs.FS) *FS {
	return &FS{inner: inner, open: map[*File]string{}}
}

// Unwrap returns the wrapped FS.
func (f *FS) Unwrap() vfs.FS { return f.inner }

// Hidden returns every hidden name made so far, in order, including those
// already removed.
func (f *FS) Hidden() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.hidden...)
}

// OpenFile opens name in the wrapped FS; the handle is tracked until it is
// closed.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	inner, err := f.inner.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	h := &File{File: inner, fs: f}
	f.mu.Lock()
	f.open[h] = path.Clean(name)
	f.mu.Unlock()
	return h, nil
}

// Remove removes name; when a handle still has it open, the file is renamed
// to a hidden name instead, as libfuse does.
func (f *FS) Remove(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.isOpen(name) {
		if fi, err := f.inner.Stat(name); err == nil && !fi.IsDir() {
			return f.hide(name)
		}
	}
	return f.inner.Remove(name)
}

// Rename renames oldname to newname; when a handle still has newname open,
// that file is first renamed to a hidden name, as libfuse does.
func (f *FS) Rename(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.isOpen(newname) && path.Clean(oldname) != path.Clean(newname) {
		if _, err := f.inner.Stat(oldname); err != nil {
			return err // nothing to rename: the target stays
		}
		if fi, err := f.inner.Stat(newname); err == nil && !fi.IsDir() {
			if err := f.hide(newname); err != nil {
				return err
			}
		}
	}
	if err := f.inner.Rename(oldname, newname); err != nil {
		return err
	}
	f.moved(oldname, newname)
	return nil
}

// RenameNoReplace renames oldname to newname unless newname exists,
// through the wrapped FS's [vfs.RenameNoReplaceFS] (exFAT's FUSE driver
// takes RENAME_NOREPLACE). It never replaces a name, so no open file is
// hidden; handles open on oldname follow the file.
func (f *FS) RenameNoReplace(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := vfs.RenameNoReplace(f.inner, oldname, newname); err != nil {
		return err
	}
	f.moved(oldname, newname)
	return nil
}

// isOpen reports whether a handle has name open. f.mu is held.
func (f *FS) isOpen(name string) bool {
	name = path.Clean(name)
	for _, n := range f.open {
		if n == name {
			return true
		}
	}
	return false
}

// hide renames name to a new hidden name in its folder. f.mu is held.
func (f *FS) hide(name string) error {
	f.next++
	hidden := path.Join(path.Dir(name), fmt.Sprintf(".fuse_hidden%08x%08x", f.next, f.next))
	if err := f.inner.Rename(name, hidden); err != nil {
		return err
	}
	f.hidden = append(f.hidden, hidden)
	f.moved(name, hidden)
	return nil
}

// moved records that the file at oldname is now at newname. f.mu is held.
func (f *FS) moved(oldname, newname string) {
	oldname, newname = path.Clean(oldname), path.Clean(newname)
	for h, n := range f.open {
		if n == oldname {
			f.open[h] = newname
		}
	}
}

// closed forgets h; when h was the last handle of a hidden file, that file
// is removed.
func (f *FS) closed(h *File) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, ok := f.open[h]
	if !ok {
		return
	}
	delete(f.open, h)
	if f.isOpen(name) || !isHidden(name) {
		return
	}
	_ = f.inner.Remove(name)
}

func isHidden(name string) bool {
	base := path.Base(name)
	return len(base) > len(".fuse_hidden") && base[:len(".fuse_hidden")] == ".fuse_hidden"
}

// Stat returns the file information of name in the wrapped FS.
func (f *FS) Stat(name string) (fs.FileInfo, error) { return f.inner.Stat(name) }

// ReadDir lists the directory name of the wrapped FS.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) { return f.inner.ReadDir(name) }

// Mkdir creates the directory name in the wrapped FS.
func (f *FS) Mkdir(name string, perm fs.FileMode) error { return f.inner.Mkdir(name, perm) }

// Link links newname to oldname in the wrapped FS.
func (f *FS) Link(oldname, newname string) error { return f.inner.Link(oldname, newname) }

// Lstat stats name in the wrapped FS without following a final symbolic
// link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) { return f.inner.Lstat(name) }

// Chtimes sets the times of name through the wrapped FS's [vfs.ChtimesFS].
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return vfs.Chtimes(f.inner, name, atime, mtime)
}

// WatchRemoval arms a watch on name through the wrapped FS's [vfs.WatchFS].
// A file hidden instead of removed (still open) is renamed away from name,
// so the watch sees it go as libfuse's volume shows it.
func (f *FS) WatchRemoval(name string) (vfs.Watch, error) { return vfs.WatchRemoval(f.inner, name) }

// JoinQueue joins the wait queue of the lock at name through the wrapped
// FS's [vfs.QueueFS] (the kernel keeps flock(2) locks of a FUSE volume
// itself when the volume does not); when the wrapped FS lacks it, the
// *fs.PathError wrapping errors.ErrUnsupported of [vfs.JoinQueue].
func (f *FS) JoinQueue(name string) (vfs.Place, error) { return vfs.JoinQueue(f.inner, name) }
