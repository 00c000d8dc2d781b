package osfs

import (
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs/internal/queue"
)

// JoinQueue joins the wait queue of the lock at name, for [vfs.QueueFS]:
// the queue is the lock's folder, opened through the root (so nothing
// outside the root is locked) as a descriptor of this place alone, and
// the head is the place that holds flock(2) LOCK_EX on it. No name is
// created, so the spec's sweep and listings see nothing new (spec: The
// lock file and the names beside it); every lock of one folder shares the
// queue.
//
// The place first tries the lock without blocking; a place not at the
// head blocks in flock(2) on a goroutine of its own (one thread while it
// blocks), which Wait waits for. Close of a place not yet at the head
// leaves that goroutine to let the lock go and close the descriptor as
// soon as flock returns. On Windows and on other systems without flock it
// returns a *fs.PathError (Op "queue") wrapping errors.ErrUnsupported; on
// a volume that refuses flock (EINVAL, ENOTSUP, ENOLCK: FUSE, some network
// volumes) the error wraps errors.ErrUnsupported as well. Other errors
// are the folder's, from opening it.
func (f *FS) JoinQueue(name string) (vfs.Place, error) {
	dir, _, err := splitName(name)
	if err != nil {
		return nil, queueError(name, err)
	}
	d, err := f.root.Open(dir)
	if err != nil {
		return nil, queueError(name, unwrapPath(err))
	}
	p, err := queue.Join(d)
	if err != nil {
		return nil, queueError(name, err)
	}
	return p, nil
}

func queueError(name string, err error) error {
	return &fs.PathError{Op: "queue", Path: name, Err: err}
}
