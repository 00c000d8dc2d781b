//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package osfs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

func tryLock(f *os.File) error { return flock(f, "flock", unix.LOCK_EX|unix.LOCK_NB) }

func unlock(f *os.File) error { return flock(f, "funlock", unix.LOCK_UN) }

// flock runs flock(2) on f's descriptor through SyscallConn, which keeps the
// descriptor open for the call and, unlike Fd, leaves its mode alone.
func flock(f *os.File, op string, how int) error {
	conn, err := f.SyscallConn()
	if err != nil {
		return &fs.PathError{Op: op, Path: f.Name(), Err: err}
	}
	var lockErr error
	err = conn.Control(func(fd uintptr) {
		for {
			lockErr = unix.Flock(int(fd), how)
			if lockErr != unix.EINTR {
				return
			}
		}
	})
	if err == nil {
		err = lockErr
	}
	if err != nil {
		return &fs.PathError{Op: op, Path: f.Name(), Err: err}
	}
	return nil
}
