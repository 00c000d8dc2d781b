package wake

import (
	"context"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// The back-off of a waiter without a watch: the first wait is short and
// each next one twice as long, up to the poll interval, so that a short
// hold is handed off fast while a long one costs one read per poll.
const firstBackoff = 100 * time.Microsecond

// Waiter is how a writer waits for a held lock (spec: The steps, Acquire
// step 3, "wait about 10 ms and go to 2").
//
// Where the FS has a [vfs.WatchFS] (osfs: inotify on the lock file itself on
// Linux, kqueue on the folder on macOS and the BSDs), the wait ends as soon
// as the lock name is removed or renamed away (a release, a break), and in
// any case after the poll interval: a holder that died leaves its lock and
// no event, and the poll reads it and breaks it. The watch is armed before
// the read of step 3, so a release between the EEXIST and the wait is
// never missed: either the read finds no lock, or the watch has the event.
// Where the FS has a [vfs.QueueFS] only the head of the lock's wait queue
// watches and polls; the others wait in the queue (queue.go). Without a
// watch (or once it fails) the Waiter sleeps a back-off that starts at
// firstBackoff and doubles up to the poll interval, from the start of each
// holder's hold it sees.
//
// Nothing safe depends on any of it: a wake only leads to the read of
// step 3 and, when the lock is gone, the publish of step 2.
type Waiter struct {
	fsys vfs.FS
	lock string
	poll time.Duration

	watch   vfs.Watch     // nil: none armed, or it failed
	off     bool          // no watch for the rest of this acquire: arming or a Wait failed
	keep    bool          // the watch's last Wait ran out with no wake, and nothing came since
	backoff time.Duration // the next wait without a watch
	token   string        // the holder the back-off was started for

	joined bool      // the queue was joined (or tried), once per acquire
	place  vfs.Place // nil: no queue
	head   bool      // place is at the head of the queue
}

// New is the Waiter of one acquire of the lock named lock in fsys, with
// poll the longest wait between two reads (the lock's PollInterval).
func New(fsys vfs.FS, lock string, poll time.Duration) *Waiter {
	return &Waiter{fsys: fsys, lock: lock, poll: poll}
}

// Arm arms the watch on the lock name before the read of step 3. A watch
// may be on the file the name holds (osfs on Linux: each hold is a new
// file), so a new one is armed for each read, unless the last wait ran out
// with no wake and nothing came since: that watch is still on the file the
// name holds. A FS without the capability, or a watch that cannot be armed
// (inotify's limits), leaves the Waiter to poll for the rest of the
// acquire.
func (w *Waiter) Arm() {
	w.join()
	if w.off || w.Queued() {
		return // only the head of the queue watches
	}
	if w.watch != nil && w.keep {
		w.keep = false
		return
	}
	w.close()
	watch, err := vfs.WatchRemoval(w.fsys, w.lock)
	if err != nil {
		w.off = true
		return
	}
	w.watch = watch
}

// Wait waits for the lock held by holder (its token) to go, at most left
// (the time to the acquire's deadline) and at most the poll interval (a
// waiter behind the head of the queue: at most its slow poll, or until it
// is the head). It returns whether the Waiter should publish at once: a
// watch woke it, or it has just become the head of the queue (its publish
// then meets EEXIST while the lock is held, and its pending file is kept
// for the release, as the head's is); and ctx's error when ctx ends.
func (w *Waiter) Wait(ctx context.Context, left time.Duration, holder string) (bool, error) {
	if w.Queued() {
		over, err := w.waitInQueue(ctx, left)
		if err != nil {
			return false, err
		}
		if over {
			return w.head, nil // at the head now: publish at once
		}
	}
	d := min(w.poll, left)
	if w.watch != nil {
		woken, err := w.watch.Wait(ctx, d)
		if err == nil {
			w.keep = !woken
			return woken, nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return false, cerr
		}
		// The watch can no longer wake us: poll from now on.
		w.close()
		w.off = true
	}
	if holder != w.token || w.backoff == 0 {
		w.token, w.backoff = holder, firstBackoff
	}
	d = min(d, w.backoff)
	w.backoff = min(2*w.backoff, w.poll)
	return false, Sleep(ctx, d)
}

// End releases the watch and leaves the queue; every acquire ends with it.
func (w *Waiter) End() {
	w.close()
	w.leave() // the head lets the next waiter up
}

// close releases the watch.
func (w *Waiter) close() {
	if w.watch != nil {
		w.watch.Close()
		w.watch = nil
	}
	w.keep = false
}

// Sleep waits d, or less when ctx ends (then it returns ctx's error).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
