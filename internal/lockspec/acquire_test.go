package lockspec_test

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// Bad input changes nothing: a name that is not a valid slash path (NUL, a
// leading slash, dot-dot) is refused before any file is touched.
func TestInvalidNameRefused(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		for _, name := range []string{"", ".", "/abs", "../x", "d/../../x", "d/a\x00b", "d//x", "d/x/"} {
			err := lockspec.Update(context.Background(), e.fsys, name, appendRecord("a"), fast(nil))
			if err == nil {
				t.Fatalf("Update(%q) succeeded", name)
			}
			if _, err := lockspec.Acquire(context.Background(), e.fsys, name, fast(nil)); err == nil {
				t.Fatalf("Acquire(%q) succeeded", name)
			}
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q after refused names", got)
		}
	})
}

// A cancelled context ends a wait at once with the context's error.
func TestAcquireHonoursContext(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		pid := locktest.LivePID(t)
		e.writeRaw(t, lockP, lockJSON(pid, hostname(t), true, "00112233445566778899aabb", time.Now()))
		ctx, cancel := context.WithCancel(context.Background())
		opts := fast(nil)
		opts.Timeout = time.Minute
		opts.PollInterval = 5 * time.Millisecond
		done := make(chan error)
		go func() { done <- lockspec.Update(ctx, e.fsys, target, appendRecord("a"), opts) }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

// Where the FS has no wait queue, every waiter watches, and a release
// wakes them all: a woken waiter then reads the lock first and publishes
// only once it is gone, so that the herd does not each write a pending file
// and link() it while the next holder holds (only the head of a queue
// publishes at once: TestWokenHeadPublishesAtOnce). Here the waiter is
// paused just after its wake while another writer takes the lock; resumed,
// it waits again with no publish. Kills "a woken waiter without a queue
// publishes at once".
func TestWokenWaiterWithoutAQueueReadsFirst(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m, holder := holdLock(t, e)
		ffs := faultfs.New(e.fsys)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpQueue, Err: syscall.ENOLCK}) // no queue here
		var woke atomic.Bool
		var published atomic.Int32 // link() to the lock name, or its exclusive create, once woken
		waiting, resume := make(chan struct{}, 1), make(chan struct{})
		ffs.Before(func(ev faultfs.Event) error {
			switch {
			case ev.Op == faultfs.OpWait:
				select {
				case waiting <- struct{}{}:
				default:
				}
			case !woke.Load():
			case ev.Op == faultfs.OpLink && ev.NewName == lockP,
				ev.Op == faultfs.OpOpenFile && ev.Name == lockP && ev.Flag&os.O_EXCL != 0:
				published.Add(1)
			}
			return nil
		})
		ffs.After(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpWait && woke.CompareAndSwap(false, true) {
				<-resume // woken by the release (its poll is a minute): paused here
			}
			return nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := acquireAsync(ctx, ffs, slow(m.Spawn()))
		receive(t, waiting, patience, "the waiter never waited on its watch")
		if err := holder.Release(); err != nil {
			t.Fatal(err)
		}
		next, err := lockspec.Acquire(ctx, e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatalf("a writer could not take the released lock: %v", err)
		}
		close(resume)
		receive(t, waiting, patience, "the woken waiter did not wait again for the next holder")
		if n := published.Load(); n != 0 {
			t.Errorf("woken with no queue, the waiter published %d times while the next holder held the lock; want 0: it reads first", n)
		}
		if err := next.Release(); err != nil {
			t.Fatal(err)
		}
		got := receive(t, done, patience, "the waiter was not woken by the next release (its poll is a minute)")
		if got.err != nil {
			t.Fatal(got.err)
		}
		if err := got.h.Release(); err != nil {
			t.Fatal(err)
		}
	})
}

// The class is learned per hold from link() alone: EEXIST proves nothing,
// so a writer that waited on a held lock on the hard-links class still
// publishes by link() (no acquire:opened); on the other class it makes one
// failing link() in the whole wait and then only exclusive opens. Kills
// "class-eexist-nolinks" and "class-always-link".
func TestClassLearnedFromLinkOnly(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		m := locktest.NewMachine("host-a")
		h1, err := lockspec.Acquire(context.Background(), ffs, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		linksBefore := ffs.Calls(faultfs.OpLink, "")
		polls := 0
		opts := fast(m.Spawn())
		opts.Timeout = 5 * time.Second
		var steps []lockspec.Step
		lockspec.SetOnStep(&opts, func(s lockspec.Step) { steps = append(steps, s) })
		ffs.Before(func(ev faultfs.Event) error {
			// Release the first holder after the waiter has tried a few times.
			if ev.Op == faultfs.OpOpenFile && ev.Name == lockP {
				polls++
				if polls == 5 {
					go h1.Release()
				}
			}
			return nil
		})
		h2, err := lockspec.Acquire(context.Background(), ffs, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer h2.Release()
		links := ffs.Calls(faultfs.OpLink, "") - linksBefore
		if e.class == "links" {
			if !h2.HardLinks() || hasStep(steps, lockspec.StepAcquireOpened) {
				t.Fatalf("after waiting on a held lock the hold left link(): HardLinks=%v steps=%v", h2.HardLinks(), steps)
			}
		} else if links != 1 {
			t.Fatalf("without hard links the waiting hold made %d link() calls, want 1", links)
		}
	})
}
