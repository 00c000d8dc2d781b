package hackpadfs

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	hpfs "github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/internal/serialfs"
)

// FS is a hackpadfs FS as a [vfs.FS]. It is safe for concurrent use when
// the hackpadfs FS is (New), and always (NewMem, NewGuarded).
type FS struct {
	fsys  hpfs.FS
	guard *serialfs.FS // nil: every call goes straight to fsys
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
)

// New returns fsys as a vfs.FS. An in-memory hackpadfs FS it knows (a
// *mem.FS, which breaks the rules the lock relies on: the package doc) is
// guarded as [NewGuarded] guards it, so it must then be used only through
// the returned FS. Every other hackpadfs FS (its os FS, and any FS New
// does not know, a wrapper over a mem FS included) has every call passed
// straight to it, and the lock's guarantees then rest on it: vfs/vfstest
// is what proves whether they hold (a backend that fails it must not serve
// a lock; NewGuarded makes one safe when only the returned FS uses it).
// fsys must offer OpenFile, Mkdir, Rename and Remove (a read-only FS fails
// every change with ENOSYS).
func New(fsys hpfs.FS) *FS {
	if inMemory(fsys) {
		return NewGuarded(fsys)
	}
	return &FS{fsys: fsys}
}

// inMemory reports whether fsys is an in-memory hackpadfs FS New knows.
func inMemory(fsys hpfs.FS) bool {
	_, ok := fsys.(*mem.FS)
	return ok
}

// Guarded reports whether the FS holds the guard of [NewGuarded] (NewMem,
// NewGuarded, and New over an in-memory FS it knows), rather than passing
// every call straight to the hackpadfs FS.
func (f *FS) Guarded() bool { return f.guard != nil }

// NewMem returns a new, empty hackpadfs mem FS made safe for the lock (see
// [NewGuarded]).
func NewMem() (*FS, error) {
	m, err := mem.NewFS()
	if err != nil {
		return nil, err
	}
	return NewGuarded(m), nil
}

// NewGuarded returns fsys, a hackpadfs FS that only the returned FS uses (a
// mem FS), as a vfs.FS that holds one mutex around every call, checks
// exclusive creates, parents, emptiness and renames itself, and sends a
// write through an open file to where that file is now (the package doc).
// Another user of fsys bypasses all of it.
func NewGuarded(fsys hpfs.FS) *FS {
	return &FS{fsys: fsys, guard: serialfs.New(backend{fsys}, serialfs.Options{PathBound: true})}
}

// Hackpad returns the hackpadfs FS.
func (f *FS) Hackpad() hpfs.FS { return f.fsys }

// OpenFile opens name with the os.O_* flags.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if f.guard != nil {
		return f.guard.OpenFile(name, flag&^syscall.O_NONBLOCK, perm)
	}
	file, err := hpfs.OpenFile(f.fsys, name, flag, perm)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	return &File{file: file, name: name}, nil
}

// Stat returns the file information of name.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if f.guard != nil {
		return f.guard.Stat(name)
	}
	fi, err := hpfs.Stat(f.fsys, name)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return fi, nil
}

// Lstat returns the file information of name without following a final
// symbolic link where the hackpadfs FS can (an hpfs.LstatFS), and follows
// it otherwise.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	if f.guard != nil {
		return f.guard.Lstat(name)
	}
	fi, err := hpfs.LstatOrStat(f.fsys, name)
	if err != nil {
		return nil, pathErr("lstat", name, err)
	}
	return fi, nil
}

// ReadDir lists the directory name, sorted by name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if f.guard != nil {
		return f.guard.ReadDir(name)
	}
	ents, err := hpfs.ReadDir(f.fsys, name)
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	ents = slices.Clone(ents)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// Mkdir creates the directory name.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	if f.guard != nil {
		return f.guard.Mkdir(name, perm)
	}
	return pathErr("mkdir", name, hpfs.Mkdir(f.fsys, name, perm))
}

// Link creates nothing and fails with an *os.LinkError wrapping ENOTSUP:
// hackpadfs has no hard links, so the lock takes the class without them
// ([vfs.NoHardLinks]).
func (f *FS) Link(oldname, newname string) error {
	return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.ENOTSUP}
}

// Rename renames oldname to newname.
func (f *FS) Rename(oldname, newname string) error {
	if f.guard != nil {
		return f.guard.Rename(oldname, newname)
	}
	if err := hpfs.Rename(f.fsys, oldname, newname); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: unwrap(err)}
	}
	return nil
}

// RenameNoReplace renames oldname to newname unless newname exists, in
// one step under the guard's mutex: it fails with an *os.LinkError (Op
// "renamenoreplace") matching fs.ErrExist when newname exists, a file or a
// directory, and nothing moves. Without the guard (a backend over the OS,
// or one New does not know) nothing here can make it atomic against
// another user of the backend, and it fails matching
// errors.ErrUnsupported.
func (f *FS) RenameNoReplace(oldname, newname string) error {
	if f.guard != nil {
		return f.guard.RenameNoReplace(oldname, newname)
	}
	return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: errors.ErrUnsupported}
}

// Remove removes the file or empty directory name.
func (f *FS) Remove(name string) error {
	if f.guard != nil {
		return f.guard.Remove(name)
	}
	return pathErr("remove", name, hpfs.Remove(f.fsys, name))
}

// Chtimes sets the access and modification times of name.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	if f.guard != nil {
		return f.guard.Chtimes(name, atime, mtime)
	}
	return pathErr("chtimes", name, hpfs.Chtimes(f.fsys, name, atime, mtime))
}

// File is an open hackpadfs file as a [vfs.File].
type File struct {
	file hpfs.File
	name string
}

// Read reads from the file.
func (f *File) Read(p []byte) (int, error) { return f.file.Read(p) }

// Write writes to the file (ENOSYS when the hackpadfs file cannot).
func (f *File) Write(p []byte) (int, error) { return hpfs.WriteFile(f.file, p) }

// Close closes the file.
func (f *File) Close() error { return f.file.Close() }

// Stat returns the file's information.
func (f *File) Stat() (fs.FileInfo, error) { return f.file.Stat() }

// Sync commits the file (ENOSYS when the hackpadfs file cannot).
func (f *File) Sync() error { return hpfs.SyncFile(f.file) }

// ReadDir lists an open directory as os.File.ReadDir does.
func (f *File) ReadDir(n int) ([]fs.DirEntry, error) { return hpfs.ReadDirFile(f.file, n) }

// Name returns the name the file was opened by.
func (f *File) Name() string { return f.name }

// backend is a hackpadfs FS as the backend of a serialfs.FS.
type backend struct{ fsys hpfs.FS }

func (b backend) OpenFile(name string, flag int, perm fs.FileMode) (serialfs.BackendFile, error) {
	file, err := hpfs.OpenFile(b.fsys, name, flag, perm)
	if err != nil {
		return nil, err
	}
	return backendFile{file}, nil
}
func (b backend) Stat(name string) (fs.FileInfo, error)      { return hpfs.Stat(b.fsys, name) }
func (b backend) ReadDir(name string) ([]fs.DirEntry, error) { return hpfs.ReadDir(b.fsys, name) }
func (b backend) Mkdir(name string, perm fs.FileMode) error  { return hpfs.Mkdir(b.fsys, name, perm) }
func (b backend) Rename(oldname, newname string) error {
	return unwrap(hpfs.Rename(b.fsys, oldname, newname))
}
func (b backend) Remove(name string) error                  { return hpfs.Remove(b.fsys, name) }
func (b backend) Chtimes(name string, a, m time.Time) error { return hpfs.Chtimes(b.fsys, name, a, m) }

// backendFile gives a hackpadfs file the Write, WriteAt and Seek a
// serialfs backend file needs.
type backendFile struct{ hpfs.File }

func (f backendFile) Write(p []byte) (int, error) { return hpfs.WriteFile(f.File, p) }
func (f backendFile) WriteAt(p []byte, off int64) (int, error) {
	return hpfs.WriteAtFile(f.File, p, off)
}

// pathErr reports err as the *fs.PathError of op on name, keeping what it
// wraps and the operation hackpadfs named, if it did.
func pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op != "" {
		op = pe.Op
	}
	return &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
}

// unwrap strips hackpadfs's *fs.PathError or *hpfs.LinkError and keeps
// what it wraps.
func unwrap(err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *hpfs.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
