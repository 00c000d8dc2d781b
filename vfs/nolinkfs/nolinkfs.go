package nolinkfs

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// FS is a [vfs.FS] whose Link always fails. It is safe for concurrent use
// when the FS it wraps is.
type FS struct {
	inner     vfs.FS
	errno     syscall.Errno
	exclusive bool
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
	_ vfs.WatchFS           = (*FS)(nil)
	_ vfs.QueueFS           = (*FS)(nil)
	_ vfs.OpenRootFS        = (*FS)(nil)
)

// New wraps inner so that Link fails with errno; errno 0 means
// syscall.ENOTSUP.
func New(inner vfs.FS, errno syscall.Errno) *FS {
	if errno == 0 {
		errno = syscall.ENOTSUP
	}
	return &FS{inner: inner, errno: errno}
}

// Unwrap returns the wrapped FS.
func (f *FS) Unwrap() vfs.FS { return f.inner }

// ExclusiveCreate returns f selecting, for the locks on it, the spec's
// exclusive create where link() is refused, instead of the directory
// publish (ExclusiveCreatePublish answers true: lockspec.ExclusiveCreateFS).
// The conformance suite's "no hard links" column, the spec's own, runs so.
func (f *FS) ExclusiveCreate() *FS {
	g := *f
	g.exclusive = true
	return &g
}

// ExclusiveCreatePublish reports whether f was made by ExclusiveCreate.
func (f *FS) ExclusiveCreatePublish() bool { return f.exclusive }

// Errno returns the errno Link fails with.
func (f *FS) Errno() syscall.Errno { return f.errno }

// Link creates nothing and always fails, with
// &os.LinkError{Op: "link", Old: oldname, New: newname, Err: errno}.
func (f *FS) Link(oldname, newname string) error {
	return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: f.errno}
}

// OpenFile opens name in the wrapped FS.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return f.inner.OpenFile(name, flag, perm)
}

// Stat returns the file information of name in the wrapped FS.
func (f *FS) Stat(name string) (fs.FileInfo, error) { return f.inner.Stat(name) }

// ReadDir lists the directory name of the wrapped FS.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) { return f.inner.ReadDir(name) }

// Mkdir creates the directory name in the wrapped FS.
func (f *FS) Mkdir(name string, perm fs.FileMode) error { return f.inner.Mkdir(name, perm) }

// Rename renames oldname to newname in the wrapped FS.
func (f *FS) Rename(oldname, newname string) error { return f.inner.Rename(oldname, newname) }

// Remove removes name from the wrapped FS.
func (f *FS) Remove(name string) error { return f.inner.Remove(name) }

// Lstat stats name in the wrapped FS without following a final symbolic
// link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) { return f.inner.Lstat(name) }
