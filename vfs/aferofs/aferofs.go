package aferofs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/internal/serialfs"
)

// FS is an afero.Fs as a [vfs.FS]. It is safe for concurrent use when the
// afero.Fs is (New), and always (NewMem, NewGuarded).
type FS struct {
	fsys  afero.Fs
	guard *serialfs.FS // nil: every call goes straight to fsys
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
)

// New returns fsys as a vfs.FS. An in-memory afero.Fs it knows (an
// *afero.MemMapFs, which breaks the rules the lock relies on: the package
// doc) is guarded as [NewGuarded] guards it, so it must then be used only
// through the returned FS. Every other afero.Fs (the OsFs, a BasePathFs
// over it, and any afero.Fs New does not know, a wrapper over a MemMapFs
// included) has every call passed straight to it, and the lock's
// guarantees then rest on it: vfs/vfstest is what proves whether they hold
// (a backend that fails it must not serve a lock; NewGuarded makes one
// safe when only the returned FS uses it).
func New(fsys afero.Fs) *FS {
	if inMemory(fsys) {
		return NewGuarded(fsys)
	}
	return &FS{fsys: fsys}
}

// inMemory reports whether fsys is an in-memory afero.Fs New knows.
func inMemory(fsys afero.Fs) bool {
	_, ok := fsys.(*afero.MemMapFs)
	return ok
}

// Guarded reports whether the FS holds the guard of [NewGuarded] (NewMem,
// NewGuarded, and New over an in-memory afero.Fs it knows), rather than
// passing every call straight to the afero.Fs.
func (f *FS) Guarded() bool { return f.guard != nil }

// NewMem returns a new, empty afero.MemMapFs made safe for the lock (see
// [NewGuarded]).
func NewMem() *FS { return NewGuarded(afero.NewMemMapFs()) }

// NewGuarded returns fsys, an afero.Fs that only the returned FS uses (a
// MemMapFs), as a vfs.FS that holds one mutex around every call and checks
// exclusive creates, parents, emptiness and renames itself (the package
// doc). Another user of fsys bypasses those checks.
func NewGuarded(fsys afero.Fs) *FS {
	return &FS{fsys: fsys, guard: serialfs.New(backend{fsys}, serialfs.Options{})}
}

// Afero returns the afero.Fs.
func (f *FS) Afero() afero.Fs { return f.fsys }

// OpenFile opens name with the os.O_* flags.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if f.guard != nil {
		return f.guard.OpenFile(name, flag&^syscall.O_NONBLOCK, perm)
	}
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	file, err := f.fsys.OpenFile(name, flag, perm)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	return &File{File: file, name: name}, nil
}

// Stat returns the file information of name.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if f.guard != nil {
		return f.guard.Stat(name)
	}
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	fi, err := f.fsys.Stat(name)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return fi, nil
}

// Lstat returns the file information of name without following a final
// symbolic link where the afero.Fs can (an afero.Lstater), and follows it
// otherwise.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	if f.guard != nil {
		return f.guard.Lstat(name)
	}
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	l, ok := f.fsys.(afero.Lstater)
	if !ok {
		return f.Stat(name)
	}
	fi, _, err := l.LstatIfPossible(name)
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
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	ents, err := readDir(f.fsys, name)
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	return ents, nil
}

// Mkdir creates the directory name.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	if f.guard != nil {
		return f.guard.Mkdir(name, perm)
	}
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: "mkdir", Path: name, Err: fs.ErrInvalid}
	}
	return pathErr("mkdir", name, f.fsys.Mkdir(name, perm))
}

// Link is os.Link when the afero.Fs is an *afero.OsFs; on every other it
// creates nothing and fails with an *os.LinkError wrapping ENOTSUP, which
// the lock reads as no hard links ([vfs.NoHardLinks]).
func (f *FS) Link(oldname, newname string) error {
	if _, ok := f.fsys.(*afero.OsFs); !ok || f.guard != nil {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.ENOTSUP}
	}
	if !fs.ValidPath(oldname) || !fs.ValidPath(newname) {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: fs.ErrInvalid}
	}
	return linkErr("link", oldname, newname, os.Link(filepath.FromSlash(oldname), filepath.FromSlash(newname)))
}

// Rename renames oldname to newname.
func (f *FS) Rename(oldname, newname string) error {
	if f.guard != nil {
		return f.guard.Rename(oldname, newname)
	}
	if !fs.ValidPath(oldname) || !fs.ValidPath(newname) {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: fs.ErrInvalid}
	}
	return linkErr("rename", oldname, newname, f.fsys.Rename(oldname, newname))
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
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrInvalid}
	}
	return pathErr("remove", name, f.fsys.Remove(name))
}

// Chtimes sets the access and modification times of name.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	if f.guard != nil {
		return f.guard.Chtimes(name, atime, mtime)
	}
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: "chtimes", Path: name, Err: fs.ErrInvalid}
	}
	return pathErr("chtimes", name, f.fsys.Chtimes(name, atime, mtime))
}

// File is an open afero.File as a [vfs.File].
type File struct {
	afero.File
	name string
}

// ReadDir lists an open directory as os.File.ReadDir does.
func (f *File) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	infos, err := f.Readdir(n)
	ents := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		ents[i] = fs.FileInfoToDirEntry(fi)
	}
	return ents, err
}

// Name returns the name the file was opened by.
func (f *File) Name() string { return f.name }

// backend is an afero.Fs as the backend of a serialfs.FS.
type backend struct{ fsys afero.Fs }

func (b backend) OpenFile(name string, flag int, perm fs.FileMode) (serialfs.BackendFile, error) {
	return b.fsys.OpenFile(name, flag, perm)
}
func (b backend) Stat(name string) (fs.FileInfo, error)      { return b.fsys.Stat(name) }
func (b backend) ReadDir(name string) ([]fs.DirEntry, error) { return readDir(b.fsys, name) }
func (b backend) Mkdir(name string, perm fs.FileMode) error  { return b.fsys.Mkdir(name, perm) }
func (b backend) Rename(oldname, newname string) error       { return b.fsys.Rename(oldname, newname) }
func (b backend) Remove(name string) error                   { return b.fsys.Remove(name) }
func (b backend) Chtimes(name string, a, m time.Time) error  { return b.fsys.Chtimes(name, a, m) }

// readDir lists name in fsys, sorted by name.
func readDir(fsys afero.Fs, name string) ([]fs.DirEntry, error) {
	d, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var ents []fs.DirEntry
	if rd, ok := d.(fs.ReadDirFile); ok {
		ents, err = rd.ReadDir(-1)
	} else {
		var infos []fs.FileInfo
		infos, err = d.Readdir(-1)
		for _, fi := range infos {
			ents = append(ents, fs.FileInfoToDirEntry(fi))
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// pathErr reports err as the *fs.PathError of op on name (afero's errors
// may name the path under a BasePathFs's base), keeping what it wraps.
func pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// linkErr reports err as the *os.LinkError of op on the two names.
func linkErr(op, oldname, newname string, err error) error {
	if err == nil {
		return nil
	}
	var le *os.LinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &le):
		err = le.Err
	case errors.As(err, &pe):
		err = pe.Err
	}
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: err}
}
