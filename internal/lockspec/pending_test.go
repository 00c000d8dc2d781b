package lockspec_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// The pending file of a waiting writer (internal/lockspec/pending.go): kept through
// the wait and rewritten in place, so that an acquire that publishes more
// than once creates one pending name; with a fresh acquiredAt at every
// publish; gone however the acquire ends; closed before its name is
// removed; and, where a file cannot be written in place, a new one per
// publish as before.

const pendingGlob = "*.pending-*"

// waiterOnHeldLock holds the lock on target in a fresh estate and returns,
// for a waiter on it: the estate, the hold, a faultfs over the estate's FS
// to go through, a channel closed at its first refused link(), and its
// options (fast, on the holder's host, with a timeout of 10 s: a release
// ends its wait).
func waiterOnHeldLock(t *testing.T) (*estate, *lockspec.Hold, *faultfs.FS, <-chan struct{}, lockspec.Options) {
	t.Helper()
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	ffs := faultfs.New(e.fsys)
	opts := fast(m.Spawn())
	opts.Timeout = 10 * time.Second
	return e, holder, ffs, firstLinkRefused(ffs), opts
}

// endHold checks that h still holds its lock (the fence), releases it, and
// checks that nothing is left in the folder.
func endHold(t *testing.T, e *estate, h *lockspec.Hold) {
	t.Helper()
	if err := h.Fence(); err != nil {
		t.Errorf("fence: %v", err)
	}
	if err := h.Release(); err != nil {
		t.Errorf("release: %v", err)
	}
	e.onlyTarget(t, false)
}

// handOver releases holder and returns the hold its waiter (done) takes,
// failing the test when the waiter fails.
func handOver(t *testing.T, holder *lockspec.Hold, done <-chan acquired) *lockspec.Hold {
	t.Helper()
	if err := holder.Release(); err != nil {
		t.Fatal(err)
	}
	got := receive(t, done, patience, "the acquire")
	if got.err != nil {
		t.Fatalf("the waiter: %v; want the lock", got.err)
	}
	return got.h
}

// firstLinkRefused returns a channel closed when the first link() of a
// pending file through ffs fails with EEXIST: the waiter has published
// once, its pending file is written and kept, and it will read and wait.
func firstLinkRefused(ffs *faultfs.FS) <-chan struct{} {
	refused := make(chan struct{})
	var once sync.Once
	ffs.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpLink && errors.Is(ev.Err, fs.ErrExist) {
			once.Do(func() { close(refused) })
		}
		return nil
	})
	return refused
}

func TestWaiterWritesOnePendingFileWithAFreshTime(t *testing.T) {
	e, holder, ffs, refused, opts := waiterOnHeldLock(t)

	first := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	later := first.Add(90 * time.Minute)
	var clock atomic.Pointer[time.Time]
	clock.Store(&first)
	var pendingSteps atomic.Int32
	opts.Now = func() time.Time { return *clock.Load() }
	lockspec.SetOnStep(&opts, func(s lockspec.Step) {
		if s == lockspec.StepAcquirePending {
			pendingSteps.Add(1)
		}
	})
	done := acquireAsync(context.Background(), ffs, opts)
	receive(t, refused, patience, "the waiter's refused link()")
	clock.Store(&later) // the next publish is later than the first
	got := handOver(t, holder, done)
	defer got.Release()

	if n := pendingSteps.Load(); n < 2 {
		t.Fatalf("%d publishes; the test wants the waiter to publish twice", n)
	}
	if n := ffs.Calls(faultfs.OpOpenFile, pendingGlob); n != 1 {
		t.Errorf("%d pending files created for %d publishes of one acquire; want 1", n, pendingSteps.Load())
	}
	raw := e.readRaw(t, lockP)
	var rec struct {
		AcquiredAt string `json:"acquiredAt"`
		Token      string `json:"token"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("the published lock %q does not parse: %v", raw, err)
	}
	if want := later.Format("2006-01-02T15:04:05.000Z"); rec.AcquiredAt != want {
		t.Errorf("acquiredAt %q; want %q, the time of the publish that took the lock", rec.AcquiredAt, want)
	}
	if rec.Token != got.Token() {
		t.Errorf("token %q; want the hold's %q", rec.Token, got.Token())
	}
	if err := got.Fence(); err != nil {
		t.Errorf("fence of the new holder: %v (the lock's bytes are not the ones it published)", err)
	}
	for _, name := range e.ls(t) {
		if strings.Contains(name, ".pending-") {
			t.Errorf("pending file %s left beside the lock", name)
		}
	}
}

// However an acquire that kept its pending file ends (its timeout, its
// ctx), the pending file goes with it.
func TestKeptPendingFileGoesHoweverTheAcquireEnds(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, ffs *faultfs.FS, opts lockspec.Options) error
	}{
		{"timeout", func(t *testing.T, ffs *faultfs.FS, opts lockspec.Options) error {
			opts.Timeout = 50 * time.Millisecond
			_, err := lockspec.Acquire(context.Background(), ffs, target, opts)
			if !errors.Is(err, lockspec.ErrTimeout) {
				t.Errorf("err = %v; want a timeout", err)
			}
			return err
		}},
		{"ctx", func(t *testing.T, ffs *faultfs.FS, opts lockspec.Options) error {
			ctx, cancel := context.WithCancel(context.Background())
			refused := firstLinkRefused(ffs)
			opts.Timeout = 10 * time.Second
			done := acquireAsync(ctx, ffs, opts)
			receive(t, refused, patience, "the waiter's refused link()")
			cancel()
			got := receive(t, done, patience, "the acquire")
			if !errors.Is(got.err, context.Canceled) {
				t.Errorf("err = %v; want context.Canceled", got.err)
			}
			return got.err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m, holder := holdLock(t, e)
			defer holder.Release()
			lock := e.readRaw(t, lockP)
			ffs := faultfs.New(e.fsys)
			if err := c.run(t, ffs, fast(m.Spawn())); err == nil {
				t.Fatal("the acquire took a held lock")
			}
			if n := ffs.Calls(faultfs.OpOpenFile, pendingGlob); n == 0 {
				t.Fatal("no pending file was written: the case tests nothing")
			}
			if names := e.ls(t); len(names) != 1 || names[0] != "log.json.lock" {
				t.Errorf("folder holds %q; want only the holder's lock", names)
			}
			if got := e.readRaw(t, lockP); string(got) != string(lock) {
				t.Errorf("the holder's lock changed: %q; want %q", got, lock)
			}
		})
	}
}

// A rewrite in place that fails ends the acquire with its error, and the
// pending file goes.
func TestPendingRewriteFailureEndsTheAcquire(t *testing.T) {
	e, holder, ffs, refused, opts := waiterOnHeldLock(t)
	done := acquireAsync(context.Background(), ffs, opts)
	receive(t, refused, patience, "the waiter's refused link()")
	ffs.Fail(faultfs.Rule{Op: faultfs.OpWrite, Match: pendingGlob, Err: syscall.ENOSPC})
	if err := holder.Release(); err != nil {
		t.Fatal(err)
	}
	got := receive(t, done, patience, "the acquire")
	if got.err == nil {
		got.h.Release()
		t.Fatal("the acquire took the lock although its rewrite failed")
	}
	if !errors.Is(got.err, syscall.ENOSPC) {
		t.Errorf("err = %v; want the rewrite's ENOSPC", got.err)
	}
	if n := ffs.Calls(faultfs.OpWrite, pendingGlob); n != 2 {
		t.Errorf("%d writes of a pending file; want 2 (the first, the rewrite)", n)
	}
	e.onlyTarget(t, false)
}

// The pending file is linked while still open; a close that fails then
// (a write-back error) leaves its bytes in doubt: the acquire fails and
// lets the lock go, leaving nothing.
func TestPendingCloseFailureAfterLinkLetsTheLockGo(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs := faultfs.New(e.fsys)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpClose, Match: pendingGlob, Err: syscall.EIO, Times: 1})
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(nil))
	if err == nil {
		h.Release()
		t.Fatal("the acquire succeeded although the pending file's close failed")
	}
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("err = %v; want the close's EIO", err)
	}
	if n := ffs.Calls(faultfs.OpLink, pendingGlob); n != 1 {
		t.Fatalf("%d link() calls; the case wants the close to fail after the link", n)
	}
	e.onlyTarget(t, false)
}

// A pending file's name is removed only once its handle is closed (a FUSE
// volume renames a file removed while open to .fuse_hidden instead): after
// a publish, after a refused link() through a wait, and at the end of an
// acquire that times out.
func TestPendingClosedBeforeItsNameIsRemoved(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	ffs := faultfs.New(e.fsys)
	var mu sync.Mutex
	open := map[string]int{}
	removed := 0
	ffs.After(func(ev faultfs.Event) error {
		if ok, _ := path.Match(pendingGlob, path.Base(ev.Name)); !ok {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		switch ev.Op {
		case faultfs.OpOpenFile:
			open[ev.Name]++
		case faultfs.OpClose:
			open[ev.Name]--
		}
		return nil
	})
	ffs.Before(func(ev faultfs.Event) error {
		if ok, _ := path.Match(pendingGlob, path.Base(ev.Name)); !ok || ev.Op != faultfs.OpRemove {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		removed++
		if open[ev.Name] != 0 {
			t.Errorf("%s removed while open", ev.Name)
		}
		return nil
	})
	opts := fast(m.Spawn())
	opts.Timeout = 30 * time.Millisecond
	if _, err := lockspec.Acquire(context.Background(), ffs, target, opts); !errors.Is(err, lockspec.ErrTimeout) {
		t.Fatalf("err = %v; want a timeout", err)
	}
	if err := holder.Release(); err != nil {
		t.Fatal(err)
	}
	h, err := lockspec.Acquire(context.Background(), ffs, target, opts)
	if err != nil {
		t.Fatal(err)
	}
	h.Release()
	if removed != 2 {
		t.Errorf("%d pending files removed; want 2 (one per acquire)", removed)
	}
}

// noWriteAtFS hides its files' WriteAt: a pending file cannot be rewritten
// in place, so each publish writes a new one and a refused link() removes
// it at once.
type noWriteAtFS struct{ vfs.FS }

func (f noWriteAtFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return struct{ vfs.File }{file}, nil
}

// noInPlace are the two ways a pending file cannot be rewritten in place,
// each as an FS over the estate's and the faultfs that counts its calls.
var noInPlace = []struct {
	name string
	wrap func(vfs.FS) (vfs.FS, *faultfs.FS)
}{
	// The file has no WriteAt at all: not kept through the wait.
	{"plain", func(f vfs.FS) (vfs.FS, *faultfs.FS) { ffs := faultfs.New(f); return noWriteAtFS{ffs}, ffs }},
	// faultfs's File has one, which fails with ErrUnsupported: kept, then a
	// new one once the rewrite is refused.
	{"unsupported", func(f vfs.FS) (vfs.FS, *faultfs.FS) { ffs := faultfs.New(noWriteAtFS{f}); return ffs, ffs }},
}

func TestPendingFileNotKeptWithoutWriteAt(t *testing.T) {
	for _, tc := range noInPlace {
		t.Run(tc.name, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m, holder := holdLock(t, e)
			fsys, ffs := tc.wrap(e.fsys)
			refused := firstLinkRefused(ffs)
			var pendingSteps atomic.Int32
			opts := fast(m.Spawn())
			opts.Timeout = 10 * time.Second
			lockspec.SetOnStep(&opts, func(s lockspec.Step) {
				if s == lockspec.StepAcquirePending {
					pendingSteps.Add(1)
				}
			})
			// When the waiter reads the lock after its refused link()
			// (step 3), its pending file is gone already.
			var atWait []string
			var readAfterRefusal atomic.Bool // apart from atWait: the folder may list nothing
			var once sync.Once
			ffs.Before(func(ev faultfs.Event) error {
				select {
				case <-refused:
				default:
					return nil
				}
				if ev.Op == faultfs.OpOpenFile && ev.Name == lockP {
					once.Do(func() {
						atWait = e.ls(t)
						readAfterRefusal.Store(true)
					})
				}
				return nil
			})
			done := acquireAsync(context.Background(), fsys, opts)
			receive(t, refused, patience, "the waiter's refused link()")
			got := handOver(t, holder, done)
			defer got.Release()
			if err := got.Fence(); err != nil {
				t.Error(err)
			}
			if tc.name != "plain" {
				atWait = nil
			} else if !readAfterRefusal.Load() {
				t.Fatal("the waiter never read the lock after its refused link()")
			}
			for _, name := range atWait {
				if strings.Contains(name, ".pending-") {
					t.Errorf("pending file %s kept through the wait although it cannot be rewritten in place", name)
				}
			}
			if n, steps := ffs.Calls(faultfs.OpOpenFile, pendingGlob), int(pendingSteps.Load()); n != steps || n < 2 {
				t.Errorf("%d pending files created for %d publishes; want one each, at least 2", n, steps)
			}
		})
	}
}
