//go:build linux

package osfs

import (
	"encoding/binary"
	"io/fs"
	"path"
	"sync"

	"golang.org/x/sys/unix"
)

// direntBufs are the buffers getdents64 reads into, 64 KiB each (a folder of
// 10,000 names lists in about a dozen calls).
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// readDir lists the directory name from the raw getdents64 records: the
// entries whose names begin with one of prefixes (every entry when
// prefixes is nil), with their types from the records. A name that does
// not match is never copied.
func (f *FS) readDir(name string, prefixes []string) ([]fs.DirEntry, error) {
	fd, err := f.openDirFD(name)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	bufp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bufp)
	buf := *bufp
	var vals []dirEntry
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: name, Err: err}
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			ino, typ, nb := binary.NativeEndian.Uint64(b[0:8]), b[18], b[19:reclen]
			b = b[reclen:]
			for i, c := range nb {
				if c == 0 {
					nb = nb[:i]
					break
				}
			}
			if ino == 0 || string(nb) == "." || string(nb) == ".." || !matches(nb, prefixes) {
				continue
			}
			e := dirEntry{fsys: f, dir: name, name: string(nb)}
			var ok bool
			if e.typ, ok, err = entryType(fd, name, e.name, typ); err != nil {
				return nil, err
			} else if !ok {
				continue // gone since the listing
			}
			vals = append(vals, e)
		}
	}
	return entries(vals), nil
}

// matches reports whether name begins with one of prefixes (nil: all).
func matches(name []byte, prefixes []string) bool {
	if prefixes == nil {
		return true
	}
	for _, p := range prefixes {
		if len(name) >= len(p) && string(name[:len(p)]) == p {
			return true
		}
	}
	return false
}

// entryType is the type of the entry name of the directory dir (open as
// dirfd) listed with type t: ok is false when the entry is gone since the
// listing (its lstat finds no file: skipped, as os.ReadDir does). Any other
// failure of the lstat is the listing's error, never a skipped name: a
// listing that silently left out a name would hide a breaker's claim from
// the claim listing (spec: The break, step 1).
func entryType(dirfd int, dir, name string, t byte) (typ fs.FileMode, ok bool, err error) {
	typ, err = direntType(dirfd, name, t)
	if err == unix.ENOENT {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, &fs.PathError{Op: "lstat", Path: path.Join(dir, name), Err: err}
	}
	return typ, true, nil
}

// direntType is the type a getdents64 record gives, or one lstat's
// (fstatat from the listed folder) where the volume gives none.
func direntType(dirfd int, name string, t byte) (fs.FileMode, error) {
	switch t {
	case unix.DT_REG:
		return 0, nil
	case unix.DT_DIR:
		return fs.ModeDir, nil
	case unix.DT_LNK:
		return fs.ModeSymlink, nil
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, nil
	case unix.DT_SOCK:
		return fs.ModeSocket, nil
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, nil
	case unix.DT_BLK:
		return fs.ModeDevice, nil
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir, nil
	case unix.S_IFLNK:
		return fs.ModeSymlink, nil
	case unix.S_IFIFO:
		return fs.ModeNamedPipe, nil
	case unix.S_IFSOCK:
		return fs.ModeSocket, nil
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice, nil
	case unix.S_IFBLK:
		return fs.ModeDevice, nil
	}
	return 0, nil
}
