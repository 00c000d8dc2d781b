package crashfs

import (
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// OpenFile opens name with the os.O_* flags, as the vfs.FS contract says. A
// folder opens read-only only (EISDIR otherwise), and its Sync commits its
// entries, as vfs.SyncDir does. O_CREATE of a missing name records a
// create in its folder; O_TRUNC of a file that holds anything records a
// truncation.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, ino, base, err := f.lookup(name)
	switch {
	case err == nil && flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0:
		return nil, pathErr("open", name, syscall.EEXIST)
	case err == syscall.ENOENT && dir != 0 && flag&os.O_CREATE != 0:
		if !f.live.inodes[dir].dir {
			return nil, pathErr("open", name, syscall.ENOTDIR)
		}
		ino = f.live.next
		f.record(&op{kind: opCreate, label: "create " + name, dir: dir, name: base, ino: ino, perm: perm.Perm(), mtime: f.opts.now()})
	case err != nil:
		return nil, pathErr("open", name, err)
	}
	n := f.live.inodes[ino]
	if n.dir {
		if writable(flag) || flag&os.O_TRUNC != 0 {
			return nil, pathErr("open", name, syscall.EISDIR)
		}
		return &dirFile{fs: f, name: name, ino: ino}, nil
	}
	if flag&os.O_TRUNC != 0 && writable(flag) && len(n.data) > 0 {
		f.record(&op{kind: opTrunc, label: "truncate " + name, ino: ino, mtime: f.opts.now()})
	}
	return &file{fs: f, name: name, ino: ino, flag: flag}, nil
}

func writable(flag int) bool { return flag&(os.O_WRONLY|os.O_RDWR) != 0 }

// file is an open regular file: it reads and writes its inode, wherever
// names lead now.
type file struct {
	fs   *FS
	name string
	ino  int
	flag int
	off  int64
	shut bool
}

func (h *file) Read(p []byte) (int, error) {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	switch {
	case h.shut:
		return 0, pathErr("read", h.name, fs.ErrClosed)
	case h.flag&(os.O_WRONLY|os.O_RDWR) == os.O_WRONLY:
		return 0, pathErr("read", h.name, syscall.EBADF)
	}
	data := h.fs.live.inodes[h.ino].data
	if h.off >= int64(len(data)) {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := copy(p, data[h.off:])
	h.off += int64(n)
	return n, nil
}

// Write records a write of p at the handle's offset (the end with
// O_APPEND).
func (h *file) Write(p []byte) (int, error) {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	switch {
	case h.shut:
		return 0, pathErr("write", h.name, fs.ErrClosed)
	case !writable(h.flag):
		return 0, pathErr("write", h.name, syscall.EBADF)
	case len(p) == 0:
		return 0, nil
	}
	if h.flag&os.O_APPEND != 0 {
		h.off = int64(len(h.fs.live.inodes[h.ino].data))
	}
	h.fs.record(&op{kind: opWrite, label: "write " + h.name, ino: h.ino, off: h.off, data: slices.Clone(p), mtime: h.fs.opts.now()})
	h.off += int64(len(p))
	return len(p), nil
}

func (h *file) Close() error {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if h.shut {
		return pathErr("close", h.name, fs.ErrClosed)
	}
	h.shut = true
	return nil
}

func (h *file) Stat() (fs.FileInfo, error) {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if h.shut {
		return nil, pathErr("stat", h.name, fs.ErrClosed)
	}
	return h.fs.info(h.ino, h.name), nil
}

// Sync records an fsync: the file's content now is what the disk holds.
func (h *file) Sync() error {
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if h.shut {
		return pathErr("sync", h.name, fs.ErrClosed)
	}
	h.fs.record(&op{kind: opSync, label: "fsync " + h.name, ino: h.ino})
	return nil
}

func (h *file) ReadDir(int) ([]fs.DirEntry, error) {
	return nil, pathErr("readdir", h.name, syscall.ENOTDIR)
}

// dirFile is an open folder, read-only.
type dirFile struct {
	fs      *FS
	name    string
	ino     int
	entries []fs.DirEntry
	listed  bool
	shut    bool
}

func (d *dirFile) Read([]byte) (int, error) { return 0, pathErr("read", d.name, syscall.EISDIR) }

func (d *dirFile) Write([]byte) (int, error) { return 0, pathErr("write", d.name, syscall.EBADF) }

func (d *dirFile) Close() error {
	d.fs.mu.Lock()
	defer d.fs.mu.Unlock()
	if d.shut {
		return pathErr("close", d.name, fs.ErrClosed)
	}
	d.shut = true
	return nil
}

func (d *dirFile) Stat() (fs.FileInfo, error) {
	d.fs.mu.Lock()
	defer d.fs.mu.Unlock()
	if d.shut {
		return nil, pathErr("stat", d.name, fs.ErrClosed)
	}
	return d.fs.info(d.ino, d.name), nil
}

// Sync records a folder sync: the folder's entries now are what the disk
// holds.
func (d *dirFile) Sync() error {
	d.fs.mu.Lock()
	defer d.fs.mu.Unlock()
	if d.shut {
		return pathErr("sync", d.name, fs.ErrClosed)
	}
	d.fs.record(&op{kind: opSync, label: "fsync " + d.name + "/", ino: d.ino})
	return nil
}

// ReadDir lists the folder as os.File.ReadDir does: n <= 0 returns what is
// left at once, n > 0 at most n entries, io.EOF at the end.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	d.fs.mu.Lock()
	defer d.fs.mu.Unlock()
	if d.shut {
		return nil, pathErr("readdir", d.name, fs.ErrClosed)
	}
	if !d.listed {
		d.entries, d.listed = d.fs.list(d.ino), true
	}
	if n <= 0 {
		out := d.entries
		d.entries = nil
		if out == nil {
			out = []fs.DirEntry{}
		}
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n:n]
	d.entries = d.entries[n:]
	return out, nil
}

// list returns the entries of folder ino, sorted by name: a name held
// twice is listed twice, in its entries' order. Called with f.mu held.
func (f *FS) list(ino int) []fs.DirEntry {
	ents := f.live.inodes[ino].ents
	out := make([]fs.DirEntry, 0, len(ents))
	for _, e := range ents {
		out = append(out, dirEntry{f.info(e.ino, e.name).(fileInfo)})
	}
	return out
}
