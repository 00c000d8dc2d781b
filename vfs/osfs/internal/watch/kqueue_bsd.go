//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package watch

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs/internal/unixdir"
)

// kqueueWatch is a watch on one name of one folder: EVFILT_VNODE on the
// folder's descriptor, and the read end of a pipe that ends a wait when its
// ctx ends. A kqueue descriptor cannot be put in the Go poller on every
// one of these systems (the runtime registers it for writing too, which a
// kqueue refuses), so a wait blocks in kevent(2) on the caller's thread.
type kqueueWatch struct {
	dir    *os.File // the folder, kept open: kqueue watches this descriptor
	dirfd  int
	kq     int
	wake   [2]int // a pipe: a byte written to wake[1] ends a wait
	base   string
	events [8]unix.Kevent_t
	ended  bool // the folder was removed or revoked
	closed bool
}

// vnodeFlags are the changes of the folder watched: NOTE_WRITE for any
// change of its entries, and the folder's own removal, rename and
// revocation.
const vnodeFlags = unix.NOTE_WRITE | unix.NOTE_DELETE | unix.NOTE_RENAME | unix.NOTE_REVOKE

// Removal arms a kqueue watch on the open folder d for the removal of
// base. d stays open until Close.
func Removal(d *os.File, base string) (vfs.Watch, error) {
	if err := unixdir.IsDir(d); err != nil {
		return nil, err
	}
	w := &kqueueWatch{dir: d, dirfd: int(d.Fd()), kq: -1, wake: [2]int{-1, -1}, base: base}
	if err := w.arm(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

func (w *kqueueWatch) arm() error {
	kq, err := unix.Kqueue()
	if err != nil {
		return err
	}
	w.kq = kq
	unix.CloseOnExec(kq)
	if err := unix.Pipe(w.wake[:]); err != nil {
		w.wake = [2]int{-1, -1}
		return err
	}
	for _, fd := range w.wake {
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			return err
		}
	}
	var changes [2]unix.Kevent_t
	unix.SetKevent(&changes[0], w.dirfd, unix.EVFILT_VNODE, unix.EV_ADD|unix.EV_CLEAR)
	changes[0].Fflags = vnodeFlags
	unix.SetKevent(&changes[1], w.wake[0], unix.EVFILT_READ, unix.EV_ADD|unix.EV_CLEAR)
	_, err = unix.Kevent(kq, changes[:], nil, nil)
	return err
}

var errWatchEnded = errors.New("the watch ended (its folder was removed or revoked)")

// Wait implements [vfs.Watch.Wait].
func (w *kqueueWatch) Wait(ctx context.Context, d time.Duration) (bool, error) {
	if w.ended {
		return false, errWatchEnded
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if ctx.Done() != nil {
		fired := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			defer close(fired)
			unix.Write(w.wake[1], []byte{0})
		})
		defer func() {
			if !stop() {
				<-fired // the pipe stays open until the byte is written
			}
		}()
	}
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		ts := unix.NsecToTimespec(left.Nanoseconds())
		n, err := unix.Kevent(w.kq, nil, w.events[:], &ts)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false, err
		}
		woken := false
		for _, ev := range w.events[:n] {
			if int(ev.Ident) == w.wake[0] {
				w.drain()
				continue
			}
			switch {
			case ev.Fflags&(unix.NOTE_DELETE|unix.NOTE_REVOKE) != 0:
				w.ended = true
				woken = true
			case ev.Fflags&unix.NOTE_RENAME != 0:
				woken = true
			case ev.Fflags&unix.NOTE_WRITE != 0 && w.gone():
				woken = true
			}
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if woken {
			return true, nil
		}
	}
}

// gone reports whether the watched name may have gone: NOTE_WRITE comes for
// every change of the folder's entries (a waiter's pending file, the
// holder's temp file), so the name is looked up before a waiter is woken.
func (w *kqueueWatch) gone() bool {
	var st unix.Stat_t
	err := unix.Fstatat(w.dirfd, w.base, &st, unix.AT_SYMLINK_NOFOLLOW)
	return err != nil // ENOENT, or any doubt: wake
}

func (w *kqueueWatch) drain() {
	var b [16]byte
	for {
		if n, err := unix.Read(w.wake[0], b[:]); n <= 0 || err != nil {
			return
		}
	}
}

// Close implements [vfs.Watch.Close].
func (w *kqueueWatch) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	for _, fd := range []int{w.kq, w.wake[0], w.wake[1]} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	return w.dir.Close()
}
