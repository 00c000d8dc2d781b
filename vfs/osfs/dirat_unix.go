//go:build unix

package osfs

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/pa-toolkit/pa/vfs"
)

// dirAt is the open folder of a root, kept so that a name in it is opened
// and listed straight from its descriptor. os.Root.OpenFile makes a file it
// tries to put in the Go poller (two fcntl calls, an epoll_ctl that a
// regular file refuses, two fcntl calls more), and a directory opened
// through a root lists with an lstat per entry; the calls here skip both.
// Nothing else changes: only a name with no slash is opened here, with
// O_NOFOLLOW, so it resolves in the folder and nowhere else, and anything
// but success, ENOENT or EEXIST (a symbolic link among others, which the
// root follows while it stays inside) goes through the root as before.
type dirAt struct {
	file *os.File // nil: no such descriptor, every call goes through the root
	conn syscall.RawConn
}

func openDirAt(root *os.Root) dirAt {
	// O_NONBLOCK (meaningless for a folder) spares the fcntl calls that
	// os.Root makes to try the descriptor in the poller.
	d, err := root.OpenFile(".", os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		return dirAt{}
	}
	conn, err := d.SyscallConn()
	if err != nil {
		d.Close()
		return dirAt{}
	}
	return dirAt{file: d, conn: conn}
}

func (d dirAt) close() {
	if d.file != nil {
		d.file.Close()
	}
}

// local reports whether name is one the folder's descriptor resolves by
// itself: "." or a name with no slash (and not "..").
func local(name string) bool {
	if name == "" || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			return false
		}
	}
	return true
}

// at runs fn with the folder's descriptor, which stays open meanwhile; ok
// is false when there is none (or the FS is closed).
func (d dirAt) at(fn func(dfd int)) bool {
	if d.file == nil {
		return false
	}
	return d.conn.Control(func(fd uintptr) { fn(int(fd)) }) == nil
}

// openAt opens name from the folder's descriptor when it can decide it
// there (ok true): the file, or the *fs.PathError (Op "openat") of ENOENT
// or EEXIST.
func (f *FS) openAt(name string, flag int, perm fs.FileMode) (file vfs.File, ok bool, err error) {
	if !local(name) {
		return nil, false, nil
	}
	var fd int
	var oerr error
	if !f.at.at(func(dfd int) {
		for {
			fd, oerr = unix.Openat(dfd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, syscallMode(perm))
			if oerr != unix.EINTR {
				return
			}
		}
	}) {
		return nil, false, nil
	}
	switch oerr {
	case nil:
	case unix.ENOENT, unix.EEXIST:
		return nil, true, &fs.PathError{Op: "openat", Path: name, Err: oerr}
	default:
		return nil, false, nil // the root decides, as it always did
	}
	return &File{os.NewFile(uintptr(fd), f.osName(name))}, true, nil
}

// osName is the OS path of name, as os.Root names the files it opens.
func (f *FS) osName(name string) string {
	dir := f.root.Name()
	if name == "." {
		return dir
	}
	if len(dir) > 0 && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

// syscallMode is os's conversion of permission bits for open(2).
func syscallMode(m fs.FileMode) uint32 {
	o := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		o |= syscall.S_ISUID
	}
	if m&fs.ModeSetgid != 0 {
		o |= syscall.S_ISGID
	}
	if m&fs.ModeSticky != 0 {
		o |= syscall.S_ISVTX
	}
	return o
}

// openDirFD opens the directory name for listing and returns its
// descriptor, which the caller closes with unix.Close: from the folder's
// descriptor when name is local, through the root otherwise (a dup of the
// root's file's descriptor, so that the listing is ours, with no lstat per
// entry).
func (f *FS) openDirFD(name string) (int, error) {
	if local(name) {
		fd, oerr := -1, error(nil)
		if f.at.at(func(dfd int) {
			for {
				fd, oerr = unix.Openat(dfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
				if oerr != unix.EINTR {
					return
				}
			}
		}) {
			switch oerr {
			case nil:
				return fd, nil
			case unix.ENOENT:
				return -1, &fs.PathError{Op: "openat", Path: name, Err: oerr}
			}
		}
	}
	d, err := f.root.Open(name)
	if err != nil {
		return -1, err
	}
	defer d.Close()
	conn, err := d.SyscallConn()
	if err != nil {
		return -1, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	fd, derr := -1, error(nil)
	if err := conn.Control(func(dfd uintptr) { fd, derr = dupCloexec(int(dfd)) }); err != nil {
		derr = err
	}
	if derr != nil {
		return -1, &fs.PathError{Op: "readdir", Path: name, Err: derr}
	}
	return fd, nil
}

func dupCloexec(fd int) (int, error) {
	for {
		nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != unix.EINTR {
			return nfd, err
		}
	}
}

// openFolder opens the folder dir through the root; the root's own folder
// (".") is a duplicate of the folder's descriptor, with no call through the
// root.
func (f *FS) openFolder(dir string) (*os.File, error) {
	if dir == "." {
		fd, derr := -1, error(nil)
		if f.at.at(func(dfd int) { fd, derr = dupCloexec(dfd) }) && derr == nil {
			return os.NewFile(uintptr(fd), f.osName(".")), nil
		}
	}
	return f.root.Open(dir)
}
