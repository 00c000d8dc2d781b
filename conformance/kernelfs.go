package conformance

import (
	"errors"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
)

// withKernelLocks wraps fsys so that its files answer kernel locks as a
// volume whose kernel locks do not work (mode kernelRefused: every TryLock
// is unsupported, as on a volume that refuses flock with ENOTSUP or
// ENOLCK; kernelNoExclude: every TryLock succeeds, as where a second open
// of a file is not excluded). The lock must then claim no kernel lock, and
// never take a granted one for a proof. Only OpenFile is wrapped: the
// lock's optional interfaces are not forwarded, and it works without them;
// its files forward the file key of the handle ([vfs.FileKeyer]), so that
// on Windows, as on Unix, it is the kernel lock alone that fails.
func withKernelLocks(fsys vfs.FS, mode string) vfs.FS { return kernelFS{FS: fsys, mode: mode} }

type kernelFS struct {
	vfs.FS
	mode string
}

// Unwrap returns the FS wrapped, so that the lock sees the publish its
// class selects (lockspec.ExclusiveCreateFS).
func (k kernelFS) Unwrap() vfs.FS { return k.FS }

func (k kernelFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := k.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &kernelFile{File: f, name: name, mode: k.mode}, nil
}

// kernelFile is a file of a kernelFS.
type kernelFile struct {
	vfs.File
	name string
	mode string
}

var (
	_ vfs.Locker    = (*kernelFile)(nil)
	_ vfs.FileKeyer = (*kernelFile)(nil)
)

func (f *kernelFile) TryLock() error {
	if f.mode == kernelRefused {
		return &fs.PathError{Op: "flock", Path: f.name, Err: errors.ErrUnsupported}
	}
	return nil
}

func (f *kernelFile) Unlock() error { return nil }

func (f *kernelFile) FileKey() (vfs.FileKey, error) {
	if k, ok := f.File.(vfs.FileKeyer); ok {
		return k.FileKey()
	}
	return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.name, Err: errors.ErrUnsupported}
}
