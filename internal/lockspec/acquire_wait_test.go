package lockspec_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// slow are options whose poll would never wake a waiter within a test: a
// waiter that acquires soon after a release was woken by the release.
func slow(h lockspec.Host) lockspec.Options {
	return lockspec.Options{Host: h, PollInterval: time.Minute, Timeout: 2 * time.Minute}
}

// woken is the bound within which a release must wake a waiter: far below
// the minute of slow's poll, generous for a loaded machine.
const woken = 5 * time.Second

// patience is how long a test waits for what must come (a wait, a release,
// a result) before it fails: long for a loaded machine, short enough that
// a mutant that never delivers it fails soon.
const patience = 10 * time.Second

// needWatch skips a test where the OS file system offers no wake-up (every
// system but Linux, macOS and the BSDs).
func needWatch(t *testing.T, fsys vfs.FS) {
	t.Helper()
	needCapability(t, "watch", func() (io.Closer, error) { return vfs.WatchRemoval(fsys, lockP) })
}

// needCapability skips a test where the OS file system has no such
// capability (arming it fails with errors.ErrUnsupported) and fails it on
// any other error; what is armed is closed at once.
func needCapability(t *testing.T, what string, arm func() (io.Closer, error)) {
	t.Helper()
	c, err := arm()
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no %s here: %v", what, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

type acquired struct {
	h   *lockspec.Hold
	err error
	at  time.Time
}

// acquireAsync runs Acquire on its own goroutine.
func acquireAsync(ctx context.Context, fsys vfs.FS, opts lockspec.Options) <-chan acquired {
	return acquireThen(ctx, fsys, opts, false)
}

// acquireThen runs Acquire on its own goroutine and, when release is true,
// releases the lock as soon as it is held (the result then has no hold).
// The result's at is when Acquire returned.
func acquireThen(ctx context.Context, fsys vfs.FS, opts lockspec.Options, release bool) <-chan acquired {
	done := make(chan acquired, 1)
	go func() {
		h, err := lockspec.Acquire(ctx, fsys, target, opts)
		at := time.Now()
		if release && err == nil {
			h, err = nil, h.Release()
		}
		done <- acquired{h, err, at}
	}()
	return done
}

// onWait returns a channel that gets a value each time a waiter on ffs is
// about to wait on its watch (the watch is armed by then).
func onWait(ffs *faultfs.FS) <-chan struct{} {
	waiting := make(chan struct{}, 1)
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpWait {
			select {
			case waiting <- struct{}{}:
			default:
			}
		}
		return nil
	})
	return waiting
}

func receive[T any](t *testing.T, c <-chan T, within time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(within):
		t.Fatalf("%s: nothing within %v", what, within)
	}
	panic("unreachable")
}

// A waiter is woken by the release, not by its poll: with a poll of a
// minute it acquires at once after the holder releases (spec: Acquire step
// 3; the wait ends early, nothing else changes).
func TestWaiterWokenByRelease(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m, holder := holdLock(t, e)
		ffs := faultfs.New(e.fsys)
		waiting := onWait(ffs)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := acquireAsync(ctx, ffs, slow(m.Spawn()))
		receive(t, waiting, patience, "the waiter never waited on a watch")
		released := time.Now()
		if err := holder.Release(); err != nil {
			t.Fatal(err)
		}
		got := receive(t, done, patience, "the waiter was not woken by the release (its poll is a minute)")
		if got.err != nil {
			t.Fatal(got.err)
		}
		defer got.h.Release()
		if d := got.at.Sub(released); d > woken {
			t.Fatalf("the waiter acquired %v after the release, want well under %v", d, woken)
		} else {
			t.Logf("acquired %v after the release", d)
		}
	})
}

// The watch is armed before the read of step 3 that leads to the wait: a
// release landing between the waiter's read (which found the lock held)
// and its wait still wakes it at once. Kills "arm the watch only at the
// wait".
func TestWatchArmedBeforeTheRead(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m, holder := holdLock(t, e)
		ffs := faultfs.New(e.fsys)
		released := make(chan time.Time, 1)
		fired := false // only the waiter's goroutine calls the hook
		ffs.After(func(ev faultfs.Event) error {
			// The waiter's first close of the lock ends the read of step 3
			// (its publish never opens the lock with a handle left to
			// close): release there, before it waits.
			if ev.Op == faultfs.OpClose && ev.Name == lockP && !fired {
				fired = true
				if err := holder.Release(); err != nil {
					t.Error(err)
				}
				released <- time.Now()
			}
			return nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := acquireAsync(ctx, ffs, slow(m.Spawn()))
		at := receive(t, released, patience, "the waiter never read the held lock")
		got := receive(t, done, patience, "a release between the read and the wait was missed (the poll is a minute)")
		if got.err != nil {
			t.Fatal(got.err)
		}
		defer got.h.Release()
		if d := got.at.Sub(at); d > woken {
			t.Fatalf("the waiter acquired %v after the release, want well under %v", d, woken)
		}
		// One for the lock it read, one before the read after the wake
		// (a watch may be on the file the name held: osfs on Linux).
		if n := ffs.Calls(faultfs.OpWatch, lockP); n < 1 || n > 2 {
			t.Fatalf("the waiter armed %d watches, want 1 or 2", n)
		}
	})
}

// An uncontended acquire arms no watch: the wake-up costs nothing on the hot
// path.
func TestNoWatchWithoutWaiting(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		if err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), fast(nil)); err != nil {
			t.Fatal(err)
		}
		if n := ffs.Calls(faultfs.OpWatch, ""); n != 0 {
			t.Fatalf("an uncontended update armed %d watches, want none", n)
		}
	})
}

// releaseAtRead releases holder after the waiter's nth read of the lock.
func releaseAtRead(t *testing.T, ffs *faultfs.FS, holder *lockspec.Hold, nth int) <-chan time.Time {
	released := make(chan time.Time, 1)
	reads := 0
	ffs.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpClose && ev.Name == lockP {
			reads++
			if reads == nth {
				if err := holder.Release(); err != nil {
					t.Error(err)
				}
				released <- time.Now()
			}
		}
		return nil
	})
	return released
}

// Where the FS has no watch (or arming one fails, as at inotify's limits),
// the waiter polls with a back-off that starts short: it still acquires, and
// soon after a release even with a poll of a minute. Kills "no back-off".
func TestNoWatchFallsBackToPolling(t *testing.T) {
	for _, c := range []struct {
		name string
		wrap func(*faultfs.FS) vfs.FS
	}{
		{"no capability", func(f *faultfs.FS) vfs.FS { return plainFS{f} }},
		{"arming fails", func(f *faultfs.FS) vfs.FS {
			f.Fail(faultfs.Rule{Op: faultfs.OpWatch, Err: syscall.ENOSPC})
			return f
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				m := locktest.NewMachine("host-a")
				holder, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
				if err != nil {
					t.Fatal(err)
				}
				ffs := faultfs.New(e.fsys)
				released := releaseAtRead(t, ffs, holder, 4)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				done := acquireAsync(ctx, c.wrap(ffs), slow(m.Spawn()))
				at := receive(t, released, patience, "the waiter did not read the lock 4 times (no back-off: its poll is a minute)")
				got := receive(t, done, patience, "the waiter without a watch did not acquire")
				if got.err != nil {
					t.Fatal(got.err)
				}
				defer got.h.Release()
				if d := got.at.Sub(at); d > woken {
					t.Fatalf("acquired %v after the release, want well under %v", d, woken)
				}
				if n := ffs.Calls(faultfs.OpWait, ""); n != 0 {
					t.Fatalf("%d waits on a watch, want none", n)
				}
			})
		})
	}
}

// plainFS is an FS with none of the optional capabilities.
type plainFS struct{ vfs.FS }

// A watch that fails while the waiter waits (its folder gone, an error) is
// dropped, and the waiter polls on.
func TestWatchFailureFallsBackToPolling(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m, holder := holdLock(t, e)
		ffs := faultfs.New(e.fsys)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpWait, Err: syscall.EIO, Times: 1})
		released := releaseAtRead(t, ffs, holder, 4)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := acquireAsync(ctx, ffs, slow(m.Spawn()))
		receive(t, released, patience, "the waiter did not poll on after its watch failed")
		got := receive(t, done, patience, "the waiter did not acquire")
		if got.err != nil {
			t.Fatal(got.err)
		}
		got.h.Release()
		if n := ffs.Calls(faultfs.OpWait, ""); n != 1 {
			t.Fatalf("%d waits on the watch, want the one that failed", n)
		}
	})
}

// A ctx ended while the waiter waits on its watch ends the wait at once
// with ctx's error.
func TestCancelWhileWaiting(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m, holder := holdLock(t, e)
		defer holder.Release()
		ffs := faultfs.New(e.fsys)
		waiting := onWait(ffs)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := acquireAsync(ctx, ffs, slow(m.Spawn()))
		receive(t, waiting, patience, "the waiter never waited on a watch")
		cancelled := time.Now()
		cancel()
		got := receive(t, done, patience, "the wait did not end with its ctx (the poll is a minute)")
		if !errors.Is(got.err, context.Canceled) || got.h != nil {
			t.Fatalf("Acquire = %v, %v; want context.Canceled", got.h, got.err)
		}
		if d := got.at.Sub(cancelled); d > woken {
			t.Fatalf("returned %v after the cancel, want well under %v", d, woken)
		}
	})
}

// A holder that dies leaves its lock and no event: the waiter's poll reads
// it within about one poll interval and breaks it at once (spec: The one
// automatic break). Kills "wait on the watch until the deadline".
func TestDeadHolderFoundByThePoll(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m := locktest.NewMachine("host-a")
		dying := m.Spawn()
		if _, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(dying)); err != nil {
			t.Fatal(err)
		}
		ffs := faultfs.New(e.fsys)
		waiting := onWait(ffs)
		opts := lockspec.Options{Host: m.Spawn(), PollInterval: 200 * time.Millisecond, Timeout: time.Minute}
		var steps []lockspec.Step
		lockspec.SetOnStep(&opts, func(s lockspec.Step) { steps = append(steps, s) })
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := acquireAsync(ctx, ffs, opts)
		receive(t, waiting, patience, "the waiter never waited on a watch")
		died := time.Now()
		dying.Kill() // like SIGKILL: the lock stays, no event
		got := receive(t, done, patience, "the dead holder's lock was not broken")
		if got.err != nil {
			t.Fatal(got.err)
		}
		defer got.h.Release()
		if d := got.at.Sub(died); d > woken {
			t.Fatalf("broken %v after the holder died, want about the poll interval (200ms)", d)
		}
		if !hasStep(steps, lockspec.StepBreakRemoved) {
			t.Fatalf("steps %v: want the dead holder's lock broken", steps)
		}
	})
}

// Every way a wait ends closes the watch and the folder the acquire held
// open: no descriptor and no inotify watch is left.
func TestWaitsLeaveNoDescriptor(t *testing.T) {
	if fdDir() == "" {
		t.Skip("no /proc/self/fd nor /dev/fd here")
	}
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m := locktest.NewMachine("host-a")
		hold := func() *lockspec.Hold {
			t.Helper()
			h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
			if err != nil {
				t.Fatal(err)
			}
			return h
		}
		ways := []struct {
			name string
			wait func(t *testing.T)
		}{
			{"acquired after a wake", func(t *testing.T) {
				holder := hold()
				ffs := faultfs.New(e.fsys)
				waiting := onWait(ffs)
				done := acquireAsync(context.Background(), ffs, slow(m.Spawn()))
				receive(t, waiting, patience, "no wait")
				holder.Release()
				got := receive(t, done, patience, "not acquired")
				if got.err != nil {
					t.Fatal(got.err)
				}
				got.h.Release()
			}},
			{"timed out", func(t *testing.T) {
				holder := hold()
				defer holder.Release()
				opts := fast(m.Spawn())
				opts.Timeout = 100 * time.Millisecond
				if _, err := lockspec.Acquire(context.Background(), e.fsys, target, opts); !errors.Is(err, lockspec.ErrTimeout) {
					t.Fatalf("Acquire = %v, want a timeout", err)
				}
			}},
			{"ctx cancelled", func(t *testing.T) {
				holder := hold()
				defer holder.Release()
				ffs := faultfs.New(e.fsys)
				waiting := onWait(ffs)
				ctx, cancel := context.WithCancel(context.Background())
				done := acquireAsync(ctx, ffs, slow(m.Spawn()))
				receive(t, waiting, patience, "no wait")
				cancel()
				if got := receive(t, done, patience, "no return"); !errors.Is(got.err, context.Canceled) {
					t.Fatalf("Acquire = %v, want context.Canceled", got.err)
				}
			}},
			{"watch failed", func(t *testing.T) {
				holder := hold()
				ffs := faultfs.New(e.fsys)
				ffs.Fail(faultfs.Rule{Op: faultfs.OpWait, Err: syscall.EIO})
				released := releaseAtRead(t, ffs, holder, 3)
				done := acquireAsync(context.Background(), ffs, slow(m.Spawn()))
				receive(t, released, patience, "no release")
				got := receive(t, done, patience, "not acquired")
				if got.err != nil {
					t.Fatal(got.err)
				}
				got.h.Release()
			}},
			{"read failed", func(t *testing.T) {
				holder := hold()
				defer holder.Release()
				ffs := faultfs.New(e.fsys)
				waiting := onWait(ffs)
				go func() {
					<-waiting
					ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "log.json.lock", Err: syscall.EIO})
				}()
				opts := slow(m.Spawn())
				opts.PollInterval = 10 * time.Millisecond
				if _, err := lockspec.Acquire(context.Background(), ffs, target, opts); !errors.Is(err, syscall.EIO) {
					t.Fatalf("Acquire = %v, want the read's EIO", err)
				}
			}},
		}
		// A first wait creates what lives as long as the process (the one
		// inotify instance on Linux).
		ways[0].wait(t)
		fds, _ := openFDs(t)
		for _, w := range ways {
			t.Run(w.name, func(t *testing.T) {
				w.wait(t)
				// No test holds a watch between tests: every inotify watch
				// of the process is one a wait left.
				// Fewer is no leak: a descriptor an earlier test left (a
				// place abandoned in the queue, closed once its flock is
				// granted) may go meanwhile.
				if f, n := openFDs(t); f > fds || n != 0 {
					t.Fatalf("%d descriptors and %d inotify watches open, want at most %d and none, as before", f, n, fds)
				}
			})
		}
	})
}

// fdDir is the folder that lists this process's descriptors: /proc/self/fd
// on Linux, /dev/fd on macOS and the BSDs; "" when there is none.
func fdDir() string {
	for _, d := range []string{"/proc/self/fd", "/dev/fd"} {
		if _, err := os.ReadDir(d); err == nil {
			return d
		}
	}
	return ""
}

// openFDs counts this process's open descriptors and, on Linux, its inotify
// watches.
func openFDs(t *testing.T) (fds, watches int) {
	t.Helper()
	dir := fdDir()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range ents {
		if _, err := os.Stat(dir + "/" + de.Name()); err != nil {
			continue // the descriptor ReadDir itself used
		}
		fds++
		link, _ := os.Readlink(dir + "/" + de.Name())
		if strings.Contains(link, "inotify") {
			info, err := os.ReadFile("/proc/self/fdinfo/" + de.Name())
			if err == nil {
				watches += strings.Count(string(info), "inotify wd:")
			}
		}
	}
	return fds, watches
}

// A lock replaced after the waiter armed its watch (a release and a new
// holder, before the read of step 3) still wakes it: the read finds the
// new holder, and the waiter arms again for it before it waits, so the new
// holder's release wakes it too (osfs on Linux watches the lock file
// itself, and each hold is a new file). Kills "arm once per acquire".
func TestLockReplacedAfterTheArm(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m := locktest.NewMachine("host-a")
		first, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		ffs := faultfs.New(e.fsys)
		second := make(chan *lockspec.Hold, 1)
		waits := make(chan struct{}, 8)
		arms := 0 // only the waiter's goroutine calls the hooks
		ffs.After(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpWatch && ev.Err == nil {
				if arms++; arms == 1 {
					// Replace the lock between the arm and the read.
					if err := first.Release(); err != nil {
						t.Error(err)
					}
					h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
					if err != nil {
						t.Error(err)
					}
					second <- h
				}
			}
			return nil
		})
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpWait {
				waits <- struct{}{}
			}
			return nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := acquireAsync(ctx, ffs, slow(m.Spawn()))
		h2 := receive(t, second, patience, "the waiter never armed a watch")
		// Its first wait wakes at once (the first lock is gone); it waits
		// on the second holder from its second wait on.
		receive(t, waits, patience, "the waiter never waited")
		receive(t, waits, patience, "the waiter did not wait again after the first lock went")
		released := time.Now()
		if err := h2.Release(); err != nil {
			t.Fatal(err)
		}
		got := receive(t, done, patience, "the release of the lock that replaced the watched one was missed (the poll is a minute)")
		if got.err != nil {
			t.Fatal(got.err)
		}
		defer got.h.Release()
		if d := got.at.Sub(released); d > woken {
			t.Fatalf("acquired %v after the release, want well under %v", d, woken)
		}
	})
}

// Cancelling the context while a writer waits for a live holder ends the
// wait with the context's error: cancelled after the writer has read the
// lock twice, so the wait has begun.
func TestWaitEndsWithContext(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, lockP, lockJSON(locktest.LivePID(t), hostname(t), true, "111111111111111111111111", time.Now()))
		ffs := faultfs.New(e.fsys)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		reads := 0
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpOpenFile && ev.Name == lockP {
				if reads++; reads == 2 {
					cancel()
				}
			}
			return nil
		})
		opts := fast(nil)
		opts.Timeout = time.Minute
		err := lockspec.Update(ctx, ffs, target, appendRecord("a"), opts)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}
