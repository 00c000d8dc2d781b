package crashfs

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// Options say what volume an [FS] models.
type Options struct {
	// ExFAT models Linux's exFAT driver: Link fails with EPERM, and a
	// rename reaches the disk as separate entry writes with no barrier (the
	// new entry, the old entry's removal and, when it replaces a name, the
	// replaced entry's removal), so a cut may show any subset of them,
	// the replaced name then held twice (see the package doc).
	ExFAT bool
	// BlockSize is the size in bytes of the blocks a write may tear at: a
	// cut may show a prefix of a pending write ending on a multiple of
	// BlockSize of the file's offsets. 0 means 4096; a negative value
	// means writes never tear.
	BlockSize int
	// Now gives the time a write or a create stamps on its file; nil means
	// time.Now.
	Now func() time.Time
}

func (o Options) blockSize() int {
	if o.BlockSize == 0 {
		return 4096
	}
	return o.BlockSize
}

func (o Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// FS is an in-memory [vfs.FS] that records, besides the live view every
// caller sees, what the disk holds (see the package doc). It is safe for
// concurrent use.
//
// Errors are *fs.PathError (*os.LinkError for Link, Rename and
// RenameNoReplace) naming the caller's names and wrapping a syscall errno,
// so that errors.Is(err, fs.ErrNotExist) and errors.Is(err,
// syscall.ENOTEMPTY) hold; a name that is not valid in the sense of
// fs.ValidPath gives one matching both fs.ErrInvalid and EINVAL.
type FS struct {
	opts Options

	mu   sync.Mutex
	base *model // the volume when the FS was made: all durable
	live *model // base with every op of log applied
	log  []*op

	last  *model // the model of the last cut asked for, read-only
	lastN int    // the op it is after
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
)

// New returns an empty volume: a root folder, synced, with nothing in it.
func New(opts Options) *FS {
	return fromModel(newModel(opts.now()), opts)
}

func fromModel(m *model, opts Options) *FS {
	return &FS{opts: opts, base: m, live: m.clone()}
}

// Options returns the options f was made with.
func (f *FS) Options() Options { return f.opts }

// Ops returns how many operations f has recorded: the creates, writes,
// truncations, syncs, mkdirs, links, renames, removes and Chtimes that
// succeeded. Reads, listings and failed calls change nothing and are not
// counted. A cut after op n, for n from 0 to Ops(), is [FS.CutAt].
func (f *FS) Ops() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.log)
}

// Op describes op i (1 to Ops()), as "rename d/a d/b"; "" out of range.
func (f *FS) Op(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i < 1 || i > len(f.log) {
		return ""
	}
	return f.log[i-1].label
}

// record applies o to the live view and logs it. Called with f.mu held.
func (f *FS) record(o *op) {
	f.log = append(f.log, o)
	f.live.apply(o, f.opts.ExFAT)
}

// lookup returns the inode name leads to, with its folder and base name
// (dir is 0 for the root). Called with f.mu held. err is a bare errno.
func (f *FS) lookup(name string) (dir, ino int, base string, err error) {
	if !fs.ValidPath(name) {
		return 0, 0, "", errInvalid
	}
	if name == "." {
		return 0, rootIno, ".", nil
	}
	dir = rootIno
	parts := strings.Split(name, "/")
	for i, p := range parts {
		d := f.live.inodes[dir]
		if !d.dir {
			return 0, 0, "", syscall.ENOTDIR
		}
		ino, ok := d.entry(p)
		if !ok {
			if i == len(parts)-1 {
				return dir, 0, p, syscall.ENOENT
			}
			return 0, 0, "", syscall.ENOENT
		}
		if i == len(parts)-1 {
			return dir, ino, p, nil
		}
		dir = ino
	}
	panic("unreachable")
}

// parent returns the folder that would hold name and its base name, or
// ENOENT/ENOTDIR when there is none, EINVAL for the root. Called with f.mu
// held.
func (f *FS) parent(name string) (dir int, base string, err error) {
	if !fs.ValidPath(name) || name == "." {
		return 0, "", errInvalid
	}
	dname, base := path.Split(name)
	dino := rootIno
	if dname != "" {
		_, ino, _, err := f.lookup(strings.TrimSuffix(dname, "/"))
		if err != nil {
			return 0, "", err
		}
		dino = ino
	}
	if !f.live.inodes[dino].dir {
		return 0, "", syscall.ENOTDIR
	}
	return dino, base, nil
}

func (f *FS) info(ino int, name string) fs.FileInfo {
	n := f.live.inodes[ino]
	fi := fileInfo{name: path.Base(name), mode: n.perm, mtime: n.mtime}
	if n.dir {
		fi.mode |= fs.ModeDir
	} else {
		fi.size = int64(len(n.data))
	}
	return fi
}

// Stat returns the information of name: ENOENT when it is missing,
// ENOTDIR when a folder on its path is a file. The information's Sys is
// nil.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ino, _, err := f.lookup(name)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return f.info(ino, name), nil
}

// Lstat is Stat: the volume has no symbolic links.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ino, _, err := f.lookup(name)
	if err != nil {
		return nil, pathErr("lstat", name, err)
	}
	return f.info(ino, name), nil
}

// ReadDir lists the folder name, sorted by name: Stat's errors, ENOTDIR
// for a file.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ino, _, err := f.lookup(name)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if !f.live.inodes[ino].dir {
		return nil, pathErr("readdir", name, syscall.ENOTDIR)
	}
	return f.list(ino), nil
}

// Mkdir makes the folder name: EEXIST when name exists, ENOENT or ENOTDIR
// when its parent is missing or a file.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, base, err := f.parent(name)
	if err == nil {
		if _, ok := f.live.inodes[dir].entry(base); ok {
			err = syscall.EEXIST
		}
	} else if name == "." {
		err = syscall.EEXIST
	}
	if err != nil {
		return pathErr("mkdir", name, err)
	}
	f.record(&op{kind: opMkdir, label: "mkdir " + name, dir: dir, name: base, ino: f.live.next, perm: perm.Perm(), mtime: f.opts.now()})
	return nil
}

// Link makes newname a hard link to the file oldname: EEXIST when newname
// exists, ENOENT when oldname is missing, EPERM for a folder and always on
// exFAT, which has no hard links.
func (f *FS) Link(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	fail := func(err error) error { return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: err} }
	if f.opts.ExFAT {
		return fail(syscall.EPERM)
	}
	_, ino, _, err := f.lookup(oldname)
	if err != nil {
		return fail(err)
	}
	dir, base, err := f.parent(newname)
	if err != nil {
		return fail(err)
	}
	if _, ok := f.live.inodes[dir].entry(base); ok {
		return fail(syscall.EEXIST)
	}
	if f.live.inodes[ino].dir {
		return fail(syscall.EPERM)
	}
	f.record(&op{kind: opLink, label: "link " + oldname + " " + newname, dir: dir, name: base, ino: ino})
	return nil
}

// Remove removes the file or the empty folder name: ENOENT when it is
// missing, ENOTEMPTY for a folder that holds anything.
func (f *FS) Remove(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, ino, base, err := f.lookup(name)
	switch {
	case err != nil:
	case name == ".":
		err = errInvalid
	case f.live.inodes[ino].dir && len(f.live.inodes[ino].ents) > 0:
		err = syscall.ENOTEMPTY
	}
	if err != nil {
		return pathErr("remove", name, err)
	}
	f.record(&op{kind: opRemove, label: "remove " + name, dir: dir, name: base, ino: ino})
	return nil
}

// Chtimes sets the modification time of name (the access time is not
// kept). Times are not subject to a cut: a state shows each file's time as
// it was at the cut.
func (f *FS) Chtimes(name string, _, mtime time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ino, _, err := f.lookup(name)
	if err != nil {
		return pathErr("chtimes", name, err)
	}
	f.record(&op{kind: opChtimes, label: "chtimes " + name, ino: ino, mtime: mtime})
	return nil
}
