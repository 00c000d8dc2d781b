package serialfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// File is an open regular file of an [FS]. Every call holds the FS's mutex.
type File struct {
	fs    *FS
	name  string // the name it was opened by
	inner BackendFile
	flag  int
	node  *node // PathBound backends: where the file is now
	off   int64 // PathBound backends: the write offset
	shut  bool
}

var _ vfs.File = (*File)(nil)

// Read reads from the file.
func (f *File) Read(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.shut {
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	if f.flag&(os.O_WRONLY|os.O_RDWR) == os.O_WRONLY {
		return 0, pathErr("read", f.name, syscall.EBADF)
	}
	n, err := f.inner.Read(p)
	if err != nil && err != io.EOF {
		err = pathErr("read", f.name, err)
	}
	return n, err
}

// Write writes to the file. On a PathBound backend the bytes go to the name
// the file has now, and nowhere when no name leads to it any more.
func (f *File) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.shut {
		return 0, pathErr("write", f.name, fs.ErrClosed)
	}
	if !writable(f.flag) {
		return 0, pathErr("write", f.name, syscall.EBADF)
	}
	var (
		n   int
		err error
	)
	switch {
	case f.node == nil || f.node.name == f.name:
		n, err = f.inner.Write(p)
	case f.node.name == "":
		n = len(p) // an unlinked file: the bytes reach no name
	default:
		n, err = f.writeMoved(p)
	}
	f.off += int64(n)
	if err != nil {
		err = pathErr("write", f.name, err)
	}
	return n, err
}

// writeMoved writes p at the file's offset under the name it was renamed
// to. Called with the mutex held.
func (f *File) writeMoved(p []byte) (int, error) {
	g, err := f.fs.b.OpenFile(f.node.name, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	defer g.Close()
	if wa, ok := g.(io.WriterAt); ok {
		return wa.WriteAt(p, f.off)
	}
	s, ok := g.(io.Seeker)
	if !ok {
		return 0, errors.ErrUnsupported
	}
	if _, err := s.Seek(f.off, io.SeekStart); err != nil {
		return 0, err
	}
	return g.Write(p)
}

// Close closes the file.
func (f *File) Close() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.shut {
		return pathErr("close", f.name, fs.ErrClosed)
	}
	f.shut = true
	if n := f.node; n != nil {
		if n.opens--; n.opens == 0 && n.name != "" && f.fs.nodes[n.name] == n {
			delete(f.fs.nodes, n.name)
		}
	}
	if err := f.inner.Close(); err != nil {
		return pathErr("close", f.name, err)
	}
	return nil
}

// Stat returns the file's information.
func (f *File) Stat() (fs.FileInfo, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.shut {
		return nil, pathErr("stat", f.name, fs.ErrClosed)
	}
	fi, err := f.inner.Stat()
	if err != nil {
		return nil, pathErr("stat", f.name, err)
	}
	return fi, nil
}

// Sync commits the file; memory has nothing to commit, so it only calls the
// backend file's own Sync when it has one.
func (f *File) Sync() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.shut {
		return pathErr("sync", f.name, fs.ErrClosed)
	}
	if s, ok := f.inner.(interface{ Sync() error }); ok {
		if err := s.Sync(); err != nil {
			return pathErr("sync", f.name, err)
		}
	}
	return nil
}

// ReadDir fails: a regular file is not a directory.
func (f *File) ReadDir(int) ([]fs.DirEntry, error) {
	return nil, pathErr("readdir", f.name, syscall.ENOTDIR)
}

// dirFile is an open directory: read-only, listed through the FS.
type dirFile struct {
	fs      *FS
	name    string
	info    fs.FileInfo
	entries []fs.DirEntry // nil until the first ReadDir
	listed  bool
	shut    bool
}

func (d *dirFile) Read([]byte) (int, error) {
	return 0, pathErr("read", d.name, syscall.EISDIR)
}

func (d *dirFile) Write([]byte) (int, error) {
	return 0, pathErr("write", d.name, syscall.EBADF)
}

func (d *dirFile) Close() error {
	d.fs.mu.Lock()
	defer d.fs.mu.Unlock()
	if d.shut {
		return pathErr("close", d.name, fs.ErrClosed)
	}
	d.shut = true
	return nil
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }

// Sync is a no-op: memory has nothing to commit.
func (d *dirFile) Sync() error { return nil }

// ReadDir lists the directory as os.File.ReadDir does: n <= 0 returns what
// is left at once, n > 0 at most n entries, io.EOF at the end.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	d.fs.mu.Lock()
	defer d.fs.mu.Unlock()
	if d.shut {
		return nil, pathErr("readdir", d.name, fs.ErrClosed)
	}
	if !d.listed {
		ents, err := d.fs.readDir(d.name)
		if err != nil {
			return nil, err
		}
		d.entries, d.listed = ents, true
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
