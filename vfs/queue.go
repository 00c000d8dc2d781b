package vfs

import (
	"context"
	"errors"
	"io/fs"
	"time"
)

// QueueFS is an [FS] that can line up the waiters of a lock, so that one of
// them at a time (the head) watches and reads the lock while the others
// sleep in the queue: a release then wakes one waiter, not every one. The
// lock's waiters use it only to wait less; nothing safe depends on it (a
// waiter that is not the head still reads the lock at a slow poll, and the
// lock's guarantees are those of the spec whether a queue is there or not;
// spec: The steps, Acquire step 3, "wait about 10 ms").
type QueueFS interface {
	FS
	// JoinQueue joins the wait queue of the lock at name, whose folder
	// must exist. It creates no name: the queue is the folder itself (an
	// flock(2) on a descriptor of it), so every lock of one folder shares
	// one queue. The caller closes the place it returns. Errors are
	// *fs.PathError (Op "queue"), wrapping errors.ErrUnsupported where
	// the volume has no such lock (FUSE, some network volumes); the
	// caller then waits without a queue.
	JoinQueue(name string) (Place, error)
}

// Place is a waiter's place in a queue joined by [QueueFS.JoinQueue]. It is
// used by one goroutine at a time.
type Place interface {
	// Wait blocks until the place is at the head of the queue (true),
	// until d has passed (false; the place keeps its turn), or until ctx
	// ends (ctx.Err(); the place keeps its turn too). Once at the head it
	// stays there until Close, and Wait returns true at once. Any other
	// error means the place can no longer move up: the caller closes it
	// and waits without a queue.
	Wait(ctx context.Context, d time.Duration) (bool, error)
	// Close leaves the queue: the head lets the next place up; a place
	// not yet at the head gives up its turn (its descriptor is closed as
	// soon as the kernel lets it go, with no call of the caller's). A
	// second call returns nil.
	Close() error
}

// JoinQueue joins the wait queue of the lock at name through fsys's
// [QueueFS]. When fsys lacks it, it returns a *fs.PathError (Op "queue")
// wrapping errors.ErrUnsupported, and the caller waits without a queue.
func JoinQueue(fsys FS, name string) (Place, error) {
	if q, ok := fsys.(QueueFS); ok {
		return q.JoinQueue(name)
	}
	return nil, &fs.PathError{Op: "queue", Path: name, Err: errors.ErrUnsupported}
}
