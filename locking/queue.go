package locking

import (
	"context"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// queuePolls is how many poll intervals a waiter that is not at the head
// of the queue waits between two reads of the lock: its slow poll. A head
// that is stopped (SIGSTOP) or slow then holds up the others for no more
// than that, and a dead holder is broken within it even by them.
const queuePolls = 5

// The wait queue (osfs on Unix: flock(2) on the lock's folder, see
// [vfs.QueueFS]) lets one waiter of a lock at a time, the head, watch and
// read the lock at the poll interval; the others sleep in the queue and
// read the lock every queuePolls polls. A release then wakes one waiter
// instead of every one, and they do not all re-read and race for it.
// Nothing safe depends on it: each waiter still runs the steps of Acquire
// (spec: The steps, Acquire step 3) at every read, head or not, and a FS
// without a queue (or whose queue fails) leaves every waiter to watch and
// poll as the head does.

// join joins the lock's queue once per acquire, at the first wait: a
// waiter that is first is the head at once.
func (w *waiter) join() {
	if w.joined {
		return
	}
	w.joined = true
	p, err := vfs.JoinQueue(w.fsys, w.lock)
	if err != nil {
		return // no queue here: wait as the head does
	}
	head, err := p.Wait(context.Background(), 0)
	if err != nil {
		p.Close()
		return
	}
	w.place, w.head = p, head
}

// queued reports whether the waiter waits in the queue, behind the head.
func (w *waiter) queued() bool { return w.place != nil && !w.head }

// waitInQueue waits for the head's place, at most the slow poll and at
// most left. It reports true when the wait is over (at the head: the lock
// is read at once, and watched from then on; or the slow poll ran out:
// the lock is read) and false when the queue failed, so the waiter waits
// as the head does from now on; ctx's error when ctx ends.
func (w *waiter) waitInQueue(ctx context.Context, left time.Duration) (bool, error) {
	head, err := w.place.Wait(ctx, min(left, queuePolls*w.poll))
	switch {
	case err == nil:
		w.head = head
		return true, nil
	case ctx.Err() != nil:
		return false, ctx.Err()
	}
	w.leave()
	return false, nil
}

// leave leaves the queue (the head lets the next waiter up).
func (w *waiter) leave() {
	if w.place != nil {
		w.place.Close()
		w.place, w.head = nil, false
	}
}
