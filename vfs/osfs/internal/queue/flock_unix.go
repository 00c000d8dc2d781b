//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package queue

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs/internal/unixdir"
)

// place is a place in the queue of a folder: a descriptor of its own of
// the folder (a fresh open, so a lock of its own: flock(2) locks belong to
// an open file description, and a dup would share that of the file it was
// joined from, with any other place joined from the same description).
type place struct {
	fd int
	up chan struct{} // closed when the blocked flock has returned

	mu      sync.Mutex
	head    bool  // this place holds the lock
	err     error // the blocked flock's error
	waiting bool  // a goroutine blocks in flock on fd
	closed  bool  // Close was called: the goroutine, if any, closes fd
}

// Join joins the wait queue of the open folder d (see the package doc),
// and closes d. Errors are the system's; a volume that refuses flock(2)
// gives one wrapping errors.ErrUnsupported.
func Join(d *os.File) (vfs.Place, error) {
	defer d.Close()
	if err := unixdir.IsDir(d); err != nil {
		return nil, err
	}
	conn, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd, oerr := -1, error(nil)
	if err := conn.Control(func(dfd uintptr) {
		fd, oerr = unixdir.RetryEINTR(func() (int, error) {
			return unix.Openat(int(dfd), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		})
	}); err != nil {
		return nil, err
	}
	if oerr != nil {
		return nil, oerr
	}
	p := &place{fd: fd, up: make(chan struct{})}
	switch err := flockEINTR(fd, unix.LOCK_EX|unix.LOCK_NB); {
	case err == nil:
		p.head = true
		close(p.up)
	case err == unix.EWOULDBLOCK:
		p.waiting = true
		go p.block()
	default:
		unix.Close(fd)
		if noFlock(err) {
			return nil, fmt.Errorf("%w: flock: %w", errors.ErrUnsupported, err)
		}
		return nil, err
	}
	return p, nil
}

// noFlock reports whether err from flock(2) means the volume has no such
// lock.
func noFlock(err error) bool {
	return err == unix.EINVAL || err == unix.ENOTSUP || err == unix.EOPNOTSUPP || err == unix.ENOLCK || err == unix.ENOSYS
}

func flockEINTR(fd, how int) error {
	for {
		if err := unix.Flock(fd, how); err != unix.EINTR {
			return err
		}
	}
}

// block waits in flock(2) for the head's place. A place closed meanwhile
// lets the lock go and closes its descriptor at once.
func (p *place) block() {
	err := flockEINTR(p.fd, unix.LOCK_EX)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waiting = false
	if p.closed {
		unix.Close(p.fd) // lets the lock go, if taken
		return
	}
	p.head, p.err = err == nil, err
	close(p.up)
}

// Wait implements [vfs.Place.Wait].
func (p *place) Wait(ctx context.Context, d time.Duration) (bool, error) {
	select {
	case <-p.up:
		return p.result()
	default:
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if d <= 0 {
		return false, nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.up:
		return p.result()
	case <-t.C:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func (p *place) result() (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return false, &fs.PathError{Op: "queue", Path: ".", Err: p.err}
	}
	return p.head, nil
}

// Close implements [vfs.Place.Close].
func (p *place) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	if p.waiting {
		return nil // block closes fd when flock returns
	}
	return unix.Close(p.fd)
}
