package faultfs

import (
	"context"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// WatchRemoval arms a watch on name through the wrapped FS's [vfs.WatchFS]
// (operation [OpWatch]); when the wrapped FS lacks it, the call fails with
// the *fs.PathError wrapping errors.ErrUnsupported of [vfs.WatchRemoval].
// Each Wait of the watch is operation [OpWait] on name: a Before hook there
// runs when the waiter is about to wait (the watch is armed then), so a
// test can pause the waiter or act while it waits; an error injected
// there is Wait's error (the waiter then polls). The watch's Close goes
// straight to the wrapped watch.
func (f *FS) WatchRemoval(name string) (vfs.Watch, error) {
	var w vfs.Watch
	err := f.do(Event{Op: OpWatch, Name: f.full(name)}, "watch", func() (err error) {
		w, err = vfs.WatchRemoval(f.inner, name)
		return err
	})
	if err != nil {
		if w != nil { // armed, then failed by an After hook
			w.Close()
		}
		return nil, err
	}
	return &watch{fs: f, name: f.full(name), inner: w}, nil
}

// watch is a watch armed through an [FS].
type watch struct {
	fs    *FS
	name  string
	inner vfs.Watch
}

func (w *watch) Wait(ctx context.Context, d time.Duration) (woken bool, err error) {
	err = w.fs.do(Event{Op: OpWait, Name: w.name}, "wait", func() (err error) {
		woken, err = w.inner.Wait(ctx, d)
		return err
	})
	return woken, err
}

func (w *watch) Close() error { return w.inner.Close() }
