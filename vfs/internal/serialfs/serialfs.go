package serialfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// FS drives a [Backend] one call at a time and enforces the rules of the
// package doc. It is safe for concurrent use.
type FS struct {
	b    Backend
	opts Options

	mu sync.Mutex
	// nodes are the regular files with an open handle, by their name now
	// (PathBound backends only): a rename moves a node, a remove or a
	// replacement orphans it.
	nodes map[string]*node
}

// node is one regular file that handles are open on.
type node struct {
	name  string // "" once no name leads to it
	opens int
}

// New drives b.
func New(b Backend, opts Options) *FS {
	return &FS{b: b, opts: opts, nodes: map[string]*node{}}
}

// Backend returns the backend.
func (f *FS) Backend() Backend { return f.b }

// openFlags are the flags a backend is given: the access mode and the
// flags that change the file, never O_EXCL, O_NONBLOCK or O_SYNC.
const openFlags = os.O_RDONLY | os.O_WRONLY | os.O_RDWR | os.O_TRUNC | os.O_APPEND

func writable(flag int) bool { return flag&(os.O_WRONLY|os.O_RDWR) != 0 }

// OpenFile opens name as the package doc says.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !fs.ValidPath(name) {
		return nil, pathErr("open", name, errInvalid)
	}
	fi, err := f.b.Stat(name)
	exists := err == nil
	switch {
	case exists:
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return nil, pathErr("open", name, syscall.EEXIST)
		}
		if fi.IsDir() {
			if writable(flag) || flag&os.O_TRUNC != 0 {
				return nil, pathErr("open", name, syscall.EISDIR)
			}
			return &dirFile{fs: f, name: name, info: fi}, nil
		}
		if !fi.Mode().IsRegular() {
			return nil, pathErr("open", name, syscall.EINVAL)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, pathErr("open", name, err)
	case flag&os.O_CREATE == 0:
		return nil, pathErr("open", name, syscall.ENOENT)
	default:
		if err := f.parentIsDir(name); err != nil {
			return nil, pathErr("open", name, err)
		}
	}
	bflag := flag & openFlags
	if !exists {
		bflag |= os.O_CREATE
	}
	inner, err := f.b.OpenFile(name, bflag, perm)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	file := &File{fs: f, name: name, inner: inner, flag: flag}
	if f.opts.PathBound {
		n := f.nodes[name]
		if n == nil {
			n = &node{name: name}
			f.nodes[name] = n
		}
		n.opens++
		file.node = n
	}
	return file, nil
}

// parentIsDir returns nil when the parent of name is a directory, ENOENT
// when it is missing and ENOTDIR when it is something else. Called with
// f.mu held.
func (f *FS) parentIsDir(name string) error {
	dir := path.Dir(name)
	if dir == "." {
		return nil
	}
	fi, err := f.b.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return syscall.ENOENT
		}
		return err
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return nil
}

// Stat returns the information of name.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !fs.ValidPath(name) {
		return nil, pathErr("stat", name, errInvalid)
	}
	fi, err := f.b.Stat(name)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return fi, nil
}

// Lstat is Stat: the backends have no symbolic links.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	fi, err := f.Stat(name)
	if err != nil {
		err.(*fs.PathError).Op = "lstat"
	}
	return fi, err
}

// ReadDir lists the directory name, sorted by name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readDir(name)
}

func (f *FS) readDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("readdir", name, errInvalid)
	}
	fi, err := f.b.Stat(name)
	if err != nil {
		return nil, pathErr("open", name, err) // as os.ReadDir, which opens first
	}
	if !fi.IsDir() {
		return nil, pathErr("readdir", name, syscall.ENOTDIR)
	}
	entries, err := f.b.ReadDir(name)
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// Mkdir makes the directory name.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !fs.ValidPath(name) {
		return pathErr("mkdir", name, errInvalid)
	}
	if _, err := f.b.Stat(name); err == nil {
		return pathErr("mkdir", name, syscall.EEXIST)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return pathErr("mkdir", name, err)
	}
	if err := f.parentIsDir(name); err != nil {
		return pathErr("mkdir", name, err)
	}
	if err := f.b.Mkdir(name, perm); err != nil {
		return pathErr("mkdir", name, err)
	}
	return nil
}

// Link fails with ENOTSUP: the backend has no hard links.
func (f *FS) Link(oldname, newname string) error {
	return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.ENOTSUP}
}

// Rename moves oldname to newname, replacing a file there.
func (f *FS) Rename(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rename("rename", oldname, newname, true)
}

// RenameNoReplace moves oldname to newname unless newname exists (EEXIST).
func (f *FS) RenameNoReplace(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rename("renamenoreplace", oldname, newname, false)
}

func (f *FS) rename(op, oldname, newname string, replace bool) error {
	fail := func(err error) error { return &os.LinkError{Op: op, Old: oldname, New: newname, Err: err} }
	if !fs.ValidPath(oldname) || !fs.ValidPath(newname) || oldname == "." || newname == "." {
		return fail(errInvalid)
	}
	ofi, err := f.b.Stat(oldname)
	if err != nil {
		return fail(unwrap(err))
	}
	if err := f.parentIsDir(newname); err != nil {
		return fail(err)
	}
	if ofi.IsDir() && strings.HasPrefix(newname, oldname+"/") {
		return fail(syscall.EINVAL)
	}
	nfi, err := f.b.Stat(newname)
	switch {
	case err == nil && ofi.IsDir():
		return fail(syscall.EEXIST) // a directory never replaces a name (stricter than POSIX, as hackpadfs)
	case err == nil && oldname == newname:
		return nil
	case err == nil && !replace:
		return fail(syscall.EEXIST)
	case err == nil && nfi.IsDir():
		return fail(syscall.EISDIR)
	case err == nil:
		if err := f.b.Remove(newname); err != nil {
			return fail(unwrap(err))
		}
		f.orphan(newname)
	case !errors.Is(err, fs.ErrNotExist):
		return fail(unwrap(err))
	}
	if err := f.b.Rename(oldname, newname); err != nil {
		return fail(unwrap(err))
	}
	f.move(oldname, newname)
	return nil
}

// Remove removes a file or an empty directory.
func (f *FS) Remove(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !fs.ValidPath(name) || name == "." {
		return pathErr("remove", name, errInvalid)
	}
	fi, err := f.b.Stat(name)
	if err != nil {
		return pathErr("remove", name, err)
	}
	if fi.IsDir() {
		ents, err := f.b.ReadDir(name)
		if err != nil {
			return pathErr("remove", name, err)
		}
		if len(ents) > 0 {
			return pathErr("remove", name, syscall.ENOTEMPTY)
		}
	}
	if err := f.b.Remove(name); err != nil {
		return pathErr("remove", name, err)
	}
	f.orphan(name)
	return nil
}

// Chtimes sets the times of name.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !fs.ValidPath(name) {
		return pathErr("chtimes", name, errInvalid)
	}
	if err := f.b.Chtimes(name, atime, mtime); err != nil {
		return pathErr("chtimes", name, err)
	}
	return nil
}

// orphan detaches the open files at name and under it from every name.
// Called with f.mu held.
func (f *FS) orphan(name string) {
	for n, nd := range f.nodes {
		if n == name || strings.HasPrefix(n, name+"/") {
			nd.name = ""
			delete(f.nodes, n)
		}
	}
}

// move follows a rename with the open files at oldname and under it.
// Called with f.mu held.
func (f *FS) move(oldname, newname string) {
	moved := map[string]*node{}
	for n, nd := range f.nodes {
		switch {
		case n == oldname:
			moved[newname] = nd
		case strings.HasPrefix(n, oldname+"/"):
			moved[newname+strings.TrimPrefix(n, oldname)] = nd
		default:
			continue
		}
		delete(f.nodes, n)
	}
	for n, nd := range moved {
		nd.name = n
		f.nodes[n] = nd
	}
}

// pathErr reports err, from a check or from the backend, as the
// *fs.PathError of op on name, keeping what the backend's error wraps.
func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
}

// errInvalid is the error of a name that is not a valid io/fs path: it
// matches both fs.ErrInvalid and syscall.EINVAL.
var errInvalid error = &invalidName{}

type invalidName struct{}

func (*invalidName) Error() string { return "invalid argument" }
func (*invalidName) Is(target error) bool {
	return target == fs.ErrInvalid || target == syscall.EINVAL
}

// unwrap strips the backend's own *fs.PathError or *os.LinkError (whose
// names may not be the caller's) and keeps what it wraps.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
