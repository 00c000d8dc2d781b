package osfs

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// FS is the directory tree under one directory of the real file system. It
// is safe for concurrent use by several goroutines.
type FS struct {
	root *os.Root
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
	_ vfs.WatchFS           = (*FS)(nil)
	_ vfs.QueueFS           = (*FS)(nil)
	_ vfs.OpenRootFS        = (*FS)(nil)
)

// New opens dir as the root of a new FS. It fails with the *fs.PathError of
// [os.OpenRoot] when dir is missing (matching fs.ErrNotExist) or is not a
// directory. The caller closes the FS with [FS.Close].
func New(dir string) (*FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &FS{root: root}, nil
}

// OpenRoot opens the directory dir, through the root, as an FS of its own
// rooted there ([vfs.OpenRootFS]): its names are relative to dir, cannot
// leave it, and are resolved from dir's open descriptor, never walked from
// this FS's root again. It stays on the directory it opened, even if that
// is renamed. The caller closes it; closing this FS does not close it.
// Errors are *fs.PathError, as [os.Root.OpenRoot]'s.
func (f *FS) OpenRoot(dir string) (vfs.RootFS, error) {
	root, err := f.root.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &FS{root: root}, nil
}

// Close releases the root directory. Files opened through the FS stay open;
// every later call on the FS fails.
func (f *FS) Close() error { return f.root.Close() }

// Dir returns the directory given to [New].
func (f *FS) Dir() string { return f.root.Name() }

// OpenFile opens name with the os.O_* flags and, when it creates the file,
// the permission bits perm. The returned [vfs.File] is a *[File]. With
// O_CREATE|O_EXCL it fails with a *fs.PathError matching fs.ErrExist when
// name exists; a missing parent matches fs.ErrNotExist.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.root.OpenFile(name, withoutPollDance(flag), perm)
	if err != nil {
		return nil, err
	}
	return &File{file}, nil
}

// Stat returns the file information of name, following symbolic links that
// stay inside the root. Errors are *fs.PathError.
func (f *FS) Stat(name string) (fs.FileInfo, error) { return f.root.Stat(name) }

// ReadDir lists the directory name through the root, sorted by file name.
// Errors are *fs.PathError naming name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	dir, err := f.root.OpenFile(name, dirFlags, 0)
	if err != nil {
		// O_DIRECTORY refuses a file at the open, where a plain open
		// let the listing refuse it: report it as the listing's.
		if pe, ok := err.(*fs.PathError); ok && errors.Is(pe.Err, syscall.ENOTDIR) {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: pe.Err}
		}
		return nil, err
	}
	defer dir.Close()
	entries, err := dir.ReadDir(-1)
	if err != nil {
		// The open file's name is the absolute OS path; report the FS's.
		if pe, ok := err.(*fs.PathError); ok {
			return nil, &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		return strings.Compare(a.Name(), b.Name())
	})
	return entries, nil
}

// Mkdir creates the directory name with permission bits perm (before the
// umask). It fails with a *fs.PathError matching fs.ErrExist when name
// exists.
func (f *FS) Mkdir(name string, perm fs.FileMode) error { return f.root.Mkdir(name, perm) }

// Link creates newname as a hard link to oldname. It fails with an
// *os.LinkError matching fs.ErrExist when newname exists, and with one
// wrapping the volume's errno (EPERM on exFAT, for example) when the file
// system has no hard links.
func (f *FS) Link(oldname, newname string) error { return f.root.Link(oldname, newname) }

// Rename renames oldname to newname, replacing newname atomically when it is
// a file. On Windows a rename that fails with a sharing error (another
// process has the file open) while newname is absent is tried again for up
// to [RenameRetryWindow], then the first error is returned. Errors are
// *os.LinkError.
func (f *FS) Rename(oldname, newname string) error { return f.rename(oldname, newname) }

// Remove removes the file or empty directory name. Errors are
// *fs.PathError.
func (f *FS) Remove(name string) error { return f.root.Remove(name) }

// Lstat returns the file information of name without following a final
// symbolic link (a symlink out of the root is reported, not refused).
// Errors are *fs.PathError.
func (f *FS) Lstat(name string) (fs.FileInfo, error) { return f.root.Lstat(name) }
