package lockspec_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
)

// TestWaitEndsAtTheDeadline: a wait never outlasts the acquire's deadline,
// whatever the poll interval: a live holder that keeps its lock makes a
// writer with a 300 ms timeout and a poll of a minute fail with the timeout
// soon after 300 ms, with a watch (which the holder's release never fires)
// and without one (its back-off grows towards the minute). Kills a wait
// bounded by the poll only.
func TestWaitEndsAtTheDeadline(t *testing.T) {
	for _, c := range []struct {
		name string
		wrap func(vfs.FS) vfs.FS
	}{
		{"watch", func(f vfs.FS) vfs.FS { return f }},
		{"no watch", func(f vfs.FS) vfs.FS { return plainFS{f} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m := locktest.NewMachine("host-a")
			holder, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
			if err != nil {
				t.Fatal(err)
			}
			defer holder.Release()
			o := slow(m.Spawn())
			o.Timeout = 300 * time.Millisecond
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				h, err := lockspec.Acquire(context.Background(), c.wrap(e.fsys), target, o)
				if err == nil {
					h.Release()
				}
				done <- err
			}()
			select {
			case err := <-done:
				var te *lockspec.TimeoutError
				if !errors.As(err, &te) {
					t.Fatalf("Acquire beside a live holder = %v; want a TimeoutError", err)
				}
				if d := time.Since(start); d > woken {
					t.Errorf("the timeout came after %v; want it soon after the 300ms deadline", d)
				}
			case <-time.After(patience):
				t.Fatalf("no timeout within %v of a 300ms deadline: the wait outlasts the deadline (poll a minute)", patience)
			}
		})
	}
}
