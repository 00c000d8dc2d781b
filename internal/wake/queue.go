package wake

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// queueSlowPolls is how many poll intervals a waiter that is not at the
// head of the queue waits between two reads of the lock, on average: its
// slow poll (2 s at the spec's 10 ms poll; each one a random time between
// half and one and a half of that, slowPoll). A head that is stopped
// (SIGSTOP) or slow cannot hold up the others: between them N waiters read
// the lock N times a slow poll, each at its own time, so a lock let go is
// taken within about slow poll / N, and a dead holder is broken within it
// even by them. The figure is set by a burst of writers: N waiters behind
// a head cost N / slow poll reads a second between them, each about 0.3
// ms of CPU with the Go runtime's wake-up, so at 1,024 waiters 2 s costs
// about 15% of a 2-core machine, where the former 5 polls (50 ms) took all
// of it from the holder (bench: burst).
const queueSlowPolls = 200

// The wait queue (osfs on Unix: flock(2) on the lock's folder, see
// [vfs.QueueFS]) lets one waiter of a lock at a time, the head, watch and
// read the lock at the poll interval; the others sleep in the queue, read
// the lock at their slow poll and keep no pending file while they do
// (internal/lockspec's acquire.go). A release then wakes one waiter instead of every one, and
// they do not all re-read and race for it.
// Nothing safe depends on it: each waiter still runs the steps of Acquire
// (spec: The steps, Acquire step 3) at every read, head or not, and a FS
// without a queue (or whose queue fails) leaves every waiter to watch and
// poll as the head does.

// join joins the lock's queue once per acquire, at the first wait: a
// waiter that is first is the head at once.
func (w *Waiter) join() {
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

// Head reports whether the Waiter is at the head of the lock's wait queue
// (false where there is no queue).
func (w *Waiter) Head() bool { return w.head }

// Queued reports whether the Waiter waits in the queue, behind the head.
func (w *Waiter) Queued() bool { return w.place != nil && !w.head }

// waitInQueue waits for the head's place, at most the slow poll and at
// most left. It reports true when the wait is over (w.head then says which:
// at the head, the Waiter publishes at once and watches from then on; the
// slow poll ran out, it reads the lock) and false when the queue failed,
// so the Waiter waits as the head does from now on; ctx's error when ctx
// ends.
func (w *Waiter) waitInQueue(ctx context.Context, left time.Duration) (bool, error) {
	head, err := w.place.Wait(ctx, min(left, w.SlowPoll()))
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

// SlowPoll is the time to the Waiter's next read behind the head: random,
// between half and one and a half of queueSlowPolls polls. The waiters of a
// burst join the queue together; with a fixed slow poll they would read in
// step behind a stopped head, and each round only one of them could take
// the lock, the others finding it held and sleeping a whole slow poll again
// (16 writers behind a stopped pa: 10 s, one gave up).
func (w *Waiter) SlowPoll() time.Duration {
	mean := queueSlowPolls * w.poll
	if mean <= 1 {
		return mean
	}
	return mean/2 + rand.N(mean)
}

// leave leaves the queue (the head lets the next waiter up).
func (w *Waiter) leave() {
	if w.place != nil {
		w.place.Close()
		w.place, w.head = nil, false
	}
}
