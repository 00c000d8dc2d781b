package osfs

import (
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs/internal/watch"
)

// WatchRemoval arms a watch that wakes a waiter when name is removed or
// renamed away (a lock's release or break), for [vfs.WatchFS]. The folder
// of name is opened through the root, so nothing outside the root is ever
// watched, and the watch is on that folder as it was opened.
//
//   - Linux: inotify on the file at name itself, when it is a regular
//     file: reached by an O_PATH|O_NOFOLLOW open from the folder's
//     descriptor and /proc/self/fd/N (the descriptor is closed before
//     WatchRemoval returns), with a mask of IN_MOVE_SELF, IN_ATTRIB and
//     IN_DELETE_SELF; a Wait is woken only when the file has left name
//     (each event is checked by one fstatat of name), and the name is
//     looked up again right after the add, so a file gone before the
//     watch wakes it at once. The other names of the folder (pending and
//     temp files, moved locks) send it no event. A name with no regular
//     file (none yet, a symbolic link, a FIFO) is watched through the
//     folder instead: a mask of removals only (IN_DELETE, IN_MOVED_FROM),
//     filtered by name's base name; the folder's own removal or move
//     (IN_DELETE_SELF, IN_MOVE_SELF), IN_IGNORED and a queue overflow
//     (IN_Q_OVERFLOW) wake the waiter too. Every watch of
//     the process is a watch descriptor on one inotify instance (closing
//     an instance waits for an SRCU grace period in the kernel, about
//     28 ms here: an instance per wait would add that to every handoff).
//     A Wait reads the instance itself, parked in the Go poller with a
//     read deadline (and ctx's end as a deadline in the past), unless
//     another Wait of the process reads it already; the reader wakes every
//     watch its events concern. No goroutine or thread is added per wait
//     or per process. Close removes the watch descriptor once no watch of
//     the process needs it.
//   - macOS and the BSDs: kqueue EVFILT_VNODE with NOTE_WRITE on the
//     folder's descriptor (any change of its entries), each checked by one
//     fstatat of the name before the waiter is woken; the folder's
//     removal, rename or revocation wakes it too. The wait blocks in
//     kevent(2) on the calling goroutine's thread, with a pipe in the same
//     kqueue to end it when ctx ends.
//   - Other systems: a *fs.PathError (Op "watch") wrapping
//     errors.ErrUnsupported, and the waiter polls.
//
// fsnotify is not used: it cannot restrict the inotify mask, so every write
// in the folder (the holder's temp file, each waiter's pending file) would
// wake every waiter, and its kqueue backend opens every file of the
// watched folder. Errors are *fs.PathError (Op "watch"): the folder's from
// opening it, ENOTDIR when it is not a directory, and the system's when
// the watch cannot be set up (inotify's limits, no /proc); the waiter then
// polls.
func (f *FS) WatchRemoval(name string) (vfs.Watch, error) {
	dir, base, err := splitName(name)
	if err != nil {
		return nil, watchError(name, err)
	}
	d, err := f.root.Open(dir)
	if err != nil {
		return nil, watchError(name, unwrapPath(err))
	}
	w, err := watch.Removal(d, base)
	if err != nil {
		return nil, watchError(name, err)
	}
	return w, nil
}

func watchError(name string, err error) error {
	return &fs.PathError{Op: "watch", Path: name, Err: err}
}
