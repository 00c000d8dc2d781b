//go:build linux

package watch

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pa-toolkit/pa/internal/wake"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs/internal/unixdir"
)

// inotifyMask is what a watch of a folder asks for: the removals of names
// in the folder, and the folder's own removal or move. IN_IGNORED,
// IN_UNMOUNT and IN_Q_OVERFLOW come without asking.
const inotifyMask = unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// fileMask is what a watch of a file asks for: a rename of any of its names
// (a release or a break renames the lock away), a change of its link count
// (an unlink of a name of it, a rename over it) and its deletion. Every
// other name of the folder is no concern of it, so their removals (a
// pending file's, a temp file's, a moved lock's) wake no one.
const fileMask = unix.IN_MOVE_SELF | unix.IN_ATTRIB | unix.IN_DELETE_SELF

// wakeAlways are the events that wake every watch of a folder, whatever
// name they carry.
const wakeAlways = unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_IGNORED | unix.IN_UNMOUNT

// theHub is the process's one inotify instance, shared by every watch.
// Closing an inotify instance waits in the kernel for an SRCU grace period
// (about 28 ms measured here, with or without watches), which an instance
// per wait would add to every handoff; so a watch is an inotify watch
// descriptor on this one instance, added when it is armed and removed when
// it is closed (about 1 us each), and the instance is never closed.
//
// The instance is read by the waiters themselves: the first Wait to find no
// reader reads it (parked in the Go poller, with a read deadline and ctx's
// end as a past deadline) and wakes every watch its events concern; the
// others wait on their own wake or for the reader to stop, to take over.
// A wake thus takes one thread, the waiter's, as a blocking system call
// would; no goroutine reads for the process.
var theHub = &hub{dirs: map[int32][]*inotifyWatch{}, free: make(chan struct{}), buf: make([]byte, 64<<10)}

type hub struct {
	mu      sync.Mutex
	fd      int      // the inotify descriptor, once inited
	file    *os.File // fd, non-blocking, in the Go poller
	err     error    // why the instance cannot be used any more
	dirs    map[int32][]*inotifyWatch
	inited  bool
	reading bool          // a Wait reads the instance now
	free    chan struct{} // closed (and replaced) when that Wait stops reading
	buf     []byte        // the reader's
}

// inotifyWatch is a watch on one name of one folder: on the file at that
// name when it was armed (file true), or on the folder.
type inotifyWatch struct {
	wd     int32
	base   string
	wake   chan struct{} // a wake not yet taken by a Wait
	ended  atomic.Bool   // the kernel dropped the inotify watch
	closed bool          // under theHub.mu
	events atomic.Uint64 // the events dispatched to it (tests count them)

	// A watch of a file:
	file     bool
	dir      *os.File        // the folder, to look base up again
	dirConn  syscall.RawConn // dir's
	dev, ino uint64          // the file watched
	gone     atomic.Bool     // the file was deleted (or events were lost)
	moved    atomic.Bool     // a name of the file was renamed
	spent    bool            // a Wait has reported the file gone
}

// Removal arms a watch on the open folder d for the removal of base: on
// the file at base when base holds a regular file (d is kept, to look base
// up again, until Close), and on the folder otherwise (d is closed: the
// watch is on the folder itself, not on d).
func Removal(d *os.File, base string) (vfs.Watch, error) {
	if err := unixdir.IsDir(d); err != nil {
		return nil, err
	}
	if w, err := watchFile(d, base); err == nil {
		return w, nil
	}
	defer d.Close()
	conn, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	var w *inotifyWatch
	var addErr error
	err = conn.Control(func(dfd uintptr) {
		// The folder by its descriptor: the path cannot lead elsewhere.
		w, addErr = theHub.add("/proc/self/fd/"+strconv.Itoa(int(dfd)), base)
	})
	if err == nil {
		err = addErr
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// watchFile arms a watch on the regular file at base in the open folder d,
// or fails (base is gone or holds something else, or inotify refuses): the
// caller then watches the folder. On success the watch keeps d.
//
// The file is reached by an O_PATH descriptor opened from d with
// O_NOFOLLOW: it resolves in d and nowhere else, follows no symbolic link,
// opens nothing for reading (no FUSE open, so no .fuse_hidden name when the
// file is removed; no side effect of a device or a FIFO) and is closed
// before watchFile returns, so no handle on the lock is ever kept. The
// watch is added through /proc/self/fd/N, on that very file; then base is
// looked up again, and a watch whose file has left base meanwhile (before
// the watch could see it go) is woken at once. So from the moment it
// returns, the file leaving base wakes the watch, whenever that happened.
func watchFile(d *os.File, base string) (*inotifyWatch, error) {
	conn, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	var w *inotifyWatch
	var addErr error
	err = conn.Control(func(dfd uintptr) { w, addErr = theHub.addFile(int(dfd), base) })
	if err == nil {
		err = addErr
	}
	if err != nil {
		return nil, err
	}
	w.dir, w.dirConn = d, conn
	return w, nil
}

// errNotAFile is watchFile's refusal of a name that holds no regular file.
var errNotAFile = errors.New("not a regular file")

// afterFileOpened, when set by a test, runs between the open of the file
// and the add of its watch.
var afterFileOpened func()

// addFile adds a watch on the regular file at base in the folder dfd.
func (h *hub) addFile(dfd int, base string) (*inotifyWatch, error) {
	fd, err := unixdir.RetryEINTR(func() (int, error) {
		return unix.Openat(dfd, base, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, errNotAFile
	}
	if afterFileOpened != nil {
		afterFileOpened()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.start(); err != nil {
		return nil, err
	}
	wd, err := unix.InotifyAddWatch(h.fd, "/proc/self/fd/"+strconv.Itoa(fd), fileMask)
	if err != nil {
		return nil, err
	}
	w := &inotifyWatch{wd: int32(wd), base: base, wake: make(chan struct{}, 1), file: true, dev: st.Dev, ino: st.Ino}
	h.dirs[w.wd] = append(h.dirs[w.wd], w)
	if w.leftAt(dfd) {
		w.gone.Store(true) // gone before the watch could see it: wake now
		w.signal()
	}
	return w, nil
}

// leftAt reports whether the file watched has left base in the folder dfd:
// base is gone, holds another file, or cannot be looked up (any doubt).
func (w *inotifyWatch) leftAt(dfd int) bool {
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, w.base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return true
	}
	return st.Dev != w.dev || st.Ino != w.ino
}

// left is leftAt in the watch's own folder.
func (w *inotifyWatch) left() bool {
	left := true
	if err := w.dirConn.Control(func(dfd uintptr) { left = w.leftAt(int(dfd)) }); err != nil {
		return true
	}
	return left
}

// add adds an inotify watch on the folder at path for base. The watch is
// registered before the hub's lock is let go, so the reader, which
// dispatches under it, sees every event that follows the add.
func (h *hub) add(path, base string) (*inotifyWatch, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.start(); err != nil {
		return nil, err
	}
	wd, err := unix.InotifyAddWatch(h.fd, path, inotifyMask)
	if err != nil {
		return nil, err
	}
	w := &inotifyWatch{wd: int32(wd), base: base, wake: make(chan struct{}, 1)}
	h.dirs[w.wd] = append(h.dirs[w.wd], w)
	return w, nil
}

// start creates the instance and its reader, once. h.mu is held.
func (h *hub) start() error {
	if h.err != nil {
		return h.err
	}
	if h.inited {
		return nil
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return err // inotify's limit of instances: try again next time
	}
	file := os.NewFile(uintptr(fd), "inotify")
	if err := file.SetReadDeadline(time.Time{}); err != nil {
		file.Close() // not in the poller: a read would block a thread
		h.err = err
		return err
	}
	h.fd, h.file, h.inited = fd, file, true
	return nil
}

// readOnce reads the instance once, until events come, the deadline passes
// or ctx ends, and wakes the watches the events concern. Only the Wait that
// holds h.reading calls it. On a read error other than the deadline every
// watch ends and no new one is armed.
func (h *hub) readOnce(ctx context.Context, deadline time.Time) error {
	if err := h.file.SetReadDeadline(deadline); err != nil {
		return h.fail(err)
	}
	if ctx.Done() != nil {
		fired := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			defer close(fired)
			h.file.SetReadDeadline(time.Unix(1, 0)) // in the past: the read ends
		})
		defer func() {
			if !stop() {
				<-fired // done before the next reader sets its deadline
			}
		}()
	}
	n, err := h.file.Read(h.buf)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	if err != nil {
		return h.fail(err)
	}
	h.mu.Lock()
	h.dispatch(h.buf[:n])
	h.mu.Unlock()
	return nil
}

// fail ends every watch: the instance cannot be read.
func (h *hub) fail(err error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.err = err
	for wd, ws := range h.dirs {
		for _, w := range ws {
			w.end()
		}
		delete(h.dirs, wd)
	}
	return err
}

// dispatch wakes the watches the events in b concern: a removal or a move
// away of a watched name, every watch of a folder on an event of the folder
// itself, every watch of a file on any event of that file (its Wait looks
// the name up again unless the file is gone), and every watch on a queue
// overflow (as if each file were gone: events were lost). h.mu is held.
func (h *hub) dispatch(b []byte) {
	for len(b) >= unix.SizeofInotifyEvent {
		wd := int32(binary.NativeEndian.Uint32(b[0:4]))
		mask := binary.NativeEndian.Uint32(b[4:8])
		end := unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(b[12:16]))
		if end > len(b) {
			end = len(b) // cannot happen: a read returns whole events
		}
		name := b[unix.SizeofInotifyEvent:end]
		for len(name) > 0 && name[len(name)-1] == 0 {
			name = name[:len(name)-1]
		}
		b = b[end:]
		if mask&unix.IN_Q_OVERFLOW != 0 {
			for _, ws := range h.dirs {
				for _, w := range ws {
					w.gone.Store(true)
					w.signal()
				}
			}
			continue
		}
		for _, w := range h.dirs[wd] {
			w.events.Add(1)
			switch {
			case mask&unix.IN_IGNORED != 0:
				w.end()
			case w.file:
				if mask&(unix.IN_DELETE_SELF|unix.IN_UNMOUNT) != 0 {
					w.gone.Store(true)
				}
				if mask&unix.IN_MOVE_SELF != 0 {
					w.moved.Store(true)
				}
				w.signal()
			case mask&wakeAlways != 0:
				w.signal()
			case mask&(unix.IN_DELETE|unix.IN_MOVED_FROM) != 0 && string(name) == w.base:
				w.signal()
			}
		}
		if mask&unix.IN_IGNORED != 0 {
			delete(h.dirs, wd) // the kernel dropped the watch
		}
	}
}

// signal wakes the watch's next (or current) Wait; wakes not yet taken
// merge into one.
func (w *inotifyWatch) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// end marks the watch as one that can wake no more, and wakes it (a watch
// of a file: the file is gone).
func (w *inotifyWatch) end() {
	w.ended.Store(true)
	w.gone.Store(true)
	w.signal()
}

var errWatchEnded = errors.New("the watch ended (its folder was removed or unmounted)")

// Wait implements [vfs.Watch.Wait]: it takes a wake already dispatched, or
// reads the instance itself when no other Wait does, or waits for its wake
// or for the reader to stop. A watch of a file reports the file gone once:
// on its deletion or a rename of a name of it at once (the lock's names are
// renamed only away from the lock name, by a release or a break; a rename
// of another hard link of it is a spurious wake, which costs the waiter a
// read), on any other event of it only when a lookup of the name finds
// another file or none (a link count that changed while the file stays, as
// when a pending name of it is removed, wakes no one); after that report
// its Waits wait d out. The rename needs no lookup: it comes with the
// releaser's own work in the folder, which a lookup would wait behind.
func (w *inotifyWatch) Wait(ctx context.Context, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	if w.spent {
		return false, wake.Sleep(ctx, time.Until(deadline))
	}
	for {
		woken, err := w.waitWake(ctx, deadline)
		if err != nil || !woken || !w.file {
			return woken, err
		}
		if w.gone.Load() || w.moved.Load() || w.left() {
			w.spent = true
			return true, nil
		}
	}
}

// beforeHubLock is called by waitWake between its first look at w.wake
// and its taking of the hub's lock: a no-op, which a test replaces to
// send a wake at exactly that point.
var beforeHubLock = func(*inotifyWatch) {}

// waitWake waits for one wake of w, until deadline or until ctx ends.
func (w *inotifyWatch) waitWake(ctx context.Context, deadline time.Time) (bool, error) {
	h := theHub
	for {
		select {
		case <-w.wake:
			return true, nil
		default:
		}
		if w.ended.Load() {
			return false, errWatchEnded
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		beforeHubLock(w)
		h.mu.Lock()
		// Every wake is sent under h.mu (by the reader's dispatch): one
		// sent before this point is in w.wake now, and must be taken
		// before this Wait becomes the reader and blocks.
		select {
		case <-w.wake:
			h.mu.Unlock()
			return true, nil
		default:
		}
		if h.err != nil {
			h.mu.Unlock()
			return false, h.err
		}
		if !h.reading {
			h.reading = true
			h.mu.Unlock()
			err := h.readOnce(ctx, deadline)
			h.mu.Lock()
			h.reading = false
			close(h.free)
			h.free = make(chan struct{})
			h.mu.Unlock()
			if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				return false, err
			}
			continue
		}
		free := h.free
		h.mu.Unlock()
		t := time.NewTimer(left)
		select {
		case <-w.wake:
			t.Stop()
			return true, nil
		case <-free:
			t.Stop() // the reader stopped: read, if no other Wait does
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}

// Close implements [vfs.Watch.Close]: the inotify watch is removed once no
// watch of this process needs it, and a watch of a file closes its folder.
func (w *inotifyWatch) Close() error {
	h := theHub
	h.mu.Lock()
	defer h.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	if w.dir != nil {
		w.dir.Close()
	}
	ws := h.dirs[w.wd]
	for i, o := range ws {
		if o == w {
			ws = append(ws[:i:i], ws[i+1:]...)
			break
		}
	}
	if len(ws) > 0 {
		h.dirs[w.wd] = ws
		return nil
	}
	if _, ok := h.dirs[w.wd]; !ok {
		return nil // dropped by the kernel already (IN_IGNORED)
	}
	delete(h.dirs, w.wd)
	if _, err := unix.InotifyRmWatch(h.fd, uint32(w.wd)); err != nil && err != unix.EINVAL {
		return &os.PathError{Op: "inotify_rm_watch", Path: w.base, Err: err}
	}
	return nil
}
