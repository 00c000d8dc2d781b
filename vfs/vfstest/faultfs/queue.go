package faultfs

import (
	"context"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// JoinQueue joins the wait queue of the lock at name through the wrapped
// FS's [vfs.QueueFS] (operation [OpQueue]); when the wrapped FS lacks it,
// the call fails with the *fs.PathError wrapping errors.ErrUnsupported of
// [vfs.JoinQueue]. Each Wait of the place is operation [OpQueueWait] on
// name: a Before hook there runs when the waiter is about to wait for the
// head's place (a test can pause it, or act), an After hook sees whether
// it got there (Event.Err is Wait's error); an error injected there is
// Wait's error (the waiter then waits without a queue). The place's Close
// goes straight to the wrapped place.
func (f *FS) JoinQueue(name string) (vfs.Place, error) {
	var p vfs.Place
	err := f.do(Event{Op: OpQueue, Name: f.full(name)}, "queue", func() (err error) {
		p, err = vfs.JoinQueue(f.inner, name)
		return err
	})
	if err != nil {
		if p != nil { // joined, then failed by an After hook
			p.Close()
		}
		return nil, err
	}
	return &place{fs: f, name: f.full(name), inner: p}, nil
}

// place is a place in a queue joined through an [FS].
type place struct {
	fs    *FS
	name  string
	inner vfs.Place
}

func (p *place) Wait(ctx context.Context, d time.Duration) (head bool, err error) {
	err = p.fs.do(Event{Op: OpQueueWait, Name: p.name}, "queuewait", func() (err error) {
		head, err = p.inner.Wait(ctx, d)
		return err
	})
	return head, err
}

func (p *place) Close() error { return p.inner.Close() }
