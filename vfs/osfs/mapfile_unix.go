//go:build unix

package osfs

import (
	"fmt"
	"io/fs"

	"github.com/pa-toolkit/pa/internal/mapread"
	"golang.org/x/sys/unix"
)

var _ mapread.Mapper = (*File)(nil)

// Map maps the first size bytes of the file read-only and shared (mmap
// PROT_READ, MAP_SHARED), for [mapread.File]; unmap is munmap. Errors are
// *fs.PathError (Op "mmap") wrapping the errno.
func (f *File) Map(size int) (data []byte, unmap func() error, err error) {
	if size <= 0 {
		return nil, nil, &fs.PathError{Op: "mmap", Path: f.Name(), Err: fmt.Errorf("size %d: %w", size, unix.EINVAL)}
	}
	raw, err := f.SyscallConn() // not Fd, which would put the handle in blocking mode
	if err != nil {
		return nil, nil, err
	}
	if cerr := raw.Control(func(fd uintptr) {
		data, err = unix.Mmap(int(fd), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	}); cerr != nil {
		return nil, nil, cerr
	}
	if err != nil {
		return nil, nil, &fs.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
