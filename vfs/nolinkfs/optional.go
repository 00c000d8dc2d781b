package nolinkfs

import (
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// RenameNoReplace renames oldname to newname unless newname exists, through
// the wrapped FS's [vfs.RenameNoReplaceFS]. When the wrapped FS lacks it, it
// returns the *os.LinkError wrapping errors.ErrUnsupported of
// [vfs.RenameNoReplace].
func (f *FS) RenameNoReplace(oldname, newname string) error {
	return vfs.RenameNoReplace(f.inner, oldname, newname)
}

// Chtimes sets the times of name through the wrapped FS's [vfs.ChtimesFS].
// When the wrapped FS lacks it, it returns the *fs.PathError wrapping
// errors.ErrUnsupported of [vfs.Chtimes].
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return vfs.Chtimes(f.inner, name, atime, mtime)
}

// WatchRemoval arms a watch on name through the wrapped FS's [vfs.WatchFS].
// When the wrapped FS lacks it, it returns the *fs.PathError wrapping
// errors.ErrUnsupported of [vfs.WatchRemoval].
func (f *FS) WatchRemoval(name string) (vfs.Watch, error) { return vfs.WatchRemoval(f.inner, name) }

// JoinQueue joins the wait queue of the lock at name through the wrapped
// FS's [vfs.QueueFS]. When the wrapped FS lacks it, it returns the
// *fs.PathError wrapping errors.ErrUnsupported of [vfs.JoinQueue].
func (f *FS) JoinQueue(name string) (vfs.Place, error) { return vfs.JoinQueue(f.inner, name) }

// OpenRoot opens dir through the wrapped FS's [vfs.OpenRootFS] and returns
// it with no hard links either (the same errno, and ExclusiveCreate when
// f has it); its Close closes the
// wrapped root. When the wrapped FS lacks it, it returns the
// *fs.PathError wrapping errors.ErrUnsupported of [vfs.OpenRoot].
func (f *FS) OpenRoot(dir string) (vfs.RootFS, error) {
	root, err := vfs.OpenRoot(f.inner, dir)
	if err != nil {
		return nil, err
	}
	r := New(root, f.errno)
	r.exclusive = f.exclusive
	return &rootFS{FS: r, root: root}, nil
}

// rootFS is an FS returned by OpenRoot.
type rootFS struct {
	*FS
	root vfs.RootFS
}

// Close closes the wrapped root.
func (r *rootFS) Close() error { return r.root.Close() }
