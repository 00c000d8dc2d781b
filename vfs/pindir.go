package vfs

import (
	"io/fs"
	"os"
	"sync/atomic"
	"time"
)

// PinDir returns fsys with its directory dir held open: dir itself and the
// names under it (directly in it, or deeper: the marker inside a
// directory lock) are served by a [RootFS] opened once on dir through
// fsys's [OpenRootFS], so that none of them is walked from the root again;
// every other name goes to fsys. The names in errors, and every optional
// capability of this package, are fsys's. unpin closes the RootFS; after it
// every name goes to fsys again, so a late call still works.
//
// The lock pins its folder for each hold (spec: The steps; nothing in them
// changes): all of a hold's names are in that folder. While pinned, a name
// in dir reaches the directory that was at dir when PinDir was called,
// even if another is renamed there meanwhile.
//
// When fsys lacks OpenRootFS, when dir is "." or not a valid path, or when
// it cannot be opened, PinDir returns fsys itself and an unpin that does
// nothing.
func PinDir(fsys FS, dir string) (pinned FS, unpin func() error) {
	if dir == "." || !fs.ValidPath(dir) {
		return fsys, noUnpin
	}
	root, err := OpenRoot(fsys, dir)
	if err != nil {
		return fsys, noUnpin
	}
	p := &pinnedFS{fsys: fsys, dir: dir}
	p.root.Store(&root)
	return p, p.unpin
}

func noUnpin() error { return nil }

// pinnedFS is fsys with dir served by root.
type pinnedFS struct {
	fsys FS
	dir  string
	root atomic.Pointer[RootFS] // nil once unpinned
}

var (
	_ ChtimesFS         = (*pinnedFS)(nil)
	_ RenameNoReplaceFS = (*pinnedFS)(nil)
	_ WatchFS           = (*pinnedFS)(nil)
	_ QueueFS           = (*pinnedFS)(nil)
)

func (p *pinnedFS) unpin() error {
	if r := p.root.Swap(nil); r != nil {
		return (*r).Close()
	}
	return nil
}

// in returns the pinned root and the name of name in it, or ok false when
// name is not under dir (or when unpinned). dir itself is "." in the
// root, for the calls that read it (self true): a listing, and an open
// (the folder's sync).
func (p *pinnedFS) in(name string, self bool) (FS, string, bool) {
	r := p.root.Load()
	if r == nil {
		return nil, "", false
	}
	if name == p.dir {
		return *r, ".", self
	}
	if len(name) <= len(p.dir)+1 || name[len(p.dir)] != '/' || name[:len(p.dir)] != p.dir {
		return nil, "", false
	}
	base := name[len(p.dir)+1:]
	if !fs.ValidPath(base) || base == "." {
		return nil, "", false
	}
	return *r, base, true
}

// in2 is in for two names, both of which must be in the root.
func (p *pinnedFS) in2(a, b string) (FS, string, string, bool) {
	ra, ba, ok := p.in(a, false)
	if !ok {
		return nil, "", "", false
	}
	rb, bb, ok := p.in(b, false)
	if !ok || ra != rb {
		return nil, "", "", false
	}
	return ra, ba, bb, true
}

// named gives back err with the caller's names where the root's are.
func named(err error, local, name string) error {
	switch e := err.(type) {
	case *fs.PathError:
		if e.Path == local {
			return &fs.PathError{Op: e.Op, Path: name, Err: e.Err}
		}
	}
	return err
}

func named2(err error, la, a, lb, b string) error {
	if e, ok := err.(*os.LinkError); ok && (e.Old == la || e.New == lb) {
		out := *e
		if e.Old == la {
			out.Old = a
		}
		if e.New == lb {
			out.New = b
		}
		return &out
	}
	return named(named(err, la, a), lb, b)
}

func (p *pinnedFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if r, local, ok := p.in(name, true); ok {
		f, err := r.OpenFile(local, flag, perm)
		return f, named(err, local, name)
	}
	return p.fsys.OpenFile(name, flag, perm)
}

func (p *pinnedFS) Stat(name string) (fs.FileInfo, error) {
	if r, local, ok := p.in(name, false); ok {
		fi, err := r.Stat(local)
		return fi, named(err, local, name)
	}
	return p.fsys.Stat(name)
}

func (p *pinnedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if r, local, ok := p.in(name, true); ok {
		ents, err := r.ReadDir(local)
		return ents, named(err, local, name)
	}
	return p.fsys.ReadDir(name)
}

func (p *pinnedFS) Mkdir(name string, perm fs.FileMode) error {
	if r, local, ok := p.in(name, false); ok {
		return named(r.Mkdir(local, perm), local, name)
	}
	return p.fsys.Mkdir(name, perm)
}

func (p *pinnedFS) Link(oldname, newname string) error {
	if r, lo, ln, ok := p.in2(oldname, newname); ok {
		return named2(r.Link(lo, ln), lo, oldname, ln, newname)
	}
	return p.fsys.Link(oldname, newname)
}

func (p *pinnedFS) Rename(oldname, newname string) error {
	if r, lo, ln, ok := p.in2(oldname, newname); ok {
		return named2(r.Rename(lo, ln), lo, oldname, ln, newname)
	}
	return p.fsys.Rename(oldname, newname)
}

func (p *pinnedFS) Remove(name string) error {
	if r, local, ok := p.in(name, false); ok {
		return named(r.Remove(local), local, name)
	}
	return p.fsys.Remove(name)
}

func (p *pinnedFS) Lstat(name string) (fs.FileInfo, error) {
	if r, local, ok := p.in(name, false); ok {
		fi, err := r.Lstat(local)
		return fi, named(err, local, name)
	}
	return p.fsys.Lstat(name)
}

func (p *pinnedFS) Chtimes(name string, atime, mtime time.Time) error {
	if r, local, ok := p.in(name, false); ok {
		return named(Chtimes(r, local, atime, mtime), local, name)
	}
	return Chtimes(p.fsys, name, atime, mtime)
}

func (p *pinnedFS) RenameNoReplace(oldname, newname string) error {
	if r, lo, ln, ok := p.in2(oldname, newname); ok {
		return named2(RenameNoReplace(r, lo, ln), lo, oldname, ln, newname)
	}
	return RenameNoReplace(p.fsys, oldname, newname)
}

func (p *pinnedFS) WatchRemoval(name string) (Watch, error) {
	if r, local, ok := p.in(name, false); ok {
		w, err := WatchRemoval(r, local)
		return w, named(err, local, name)
	}
	return WatchRemoval(p.fsys, name)
}

func (p *pinnedFS) JoinQueue(name string) (Place, error) {
	if r, local, ok := p.in(name, false); ok {
		q, err := JoinQueue(r, local)
		return q, named(err, local, name)
	}
	return JoinQueue(p.fsys, name)
}
