package lockspec_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// The pending file of a publish (internal/lockspec/pending.go): one per
// publish, written whole with the publish's acquiredAt, closed before its
// link(), and gone however the publish and the acquire end.

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
// once, and it will read and wait.
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

// lockRecord is the lock's acquiredAt and token, as published.
func lockRecord(t *testing.T, e *estate) (acquiredAt, token string) {
	t.Helper()
	raw := e.readRaw(t, lockP)
	var rec struct {
		AcquiredAt string `json:"acquiredAt"`
		Token      string `json:"token"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("the published lock %q does not parse: %v", raw, err)
	}
	return rec.AcquiredAt, rec.Token
}

// A waiter that publishes twice writes a pending file for each publish,
// and the lock it takes carries the acquiredAt of the publish that took it
// and the hold's token; no pending file is left.
func TestEachPublishWritesItsOwnPendingFile(t *testing.T) {
	e, holder, ffs, refused, opts := waiterOnHeldLock(t)

	first := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	later := first.Add(90 * time.Minute)
	var clock atomic.Pointer[time.Time]
	clock.Store(&first)
	var publishes atomic.Int32
	opts.Now = func() time.Time { return *clock.Load() }
	lockspec.SetOnStep(&opts, func(s lockspec.Step) {
		if s == lockspec.StepAcquirePending {
			publishes.Add(1)
		}
	})
	done := acquireAsync(context.Background(), ffs, opts)
	receive(t, refused, patience, "the waiter's refused link()")
	clock.Store(&later) // the next publish is later than the first
	got := handOver(t, holder, done)
	defer got.Release()

	if n := publishes.Load(); n < 2 {
		t.Fatalf("%d publishes; the test wants the waiter to publish twice", n)
	}
	if n := ffs.Calls(faultfs.OpOpenFile, pendingGlob); n != int(publishes.Load()) {
		t.Errorf("%d pending files created for %d publishes; want one each", n, publishes.Load())
	}
	at, token := lockRecord(t, e)
	if want := later.Format("2006-01-02T15:04:05.000Z"); at != want {
		t.Errorf("acquiredAt %q; want %q, the time of the publish that took the lock", at, want)
	}
	if token != got.Token() {
		t.Errorf("token %q; want the hold's %q", token, got.Token())
	}
	if err := got.Fence(); err != nil {
		t.Errorf("fence of the new holder: %v (the lock's bytes are not the ones it published)", err)
	}
	if err := got.Release(); err != nil {
		t.Fatal(err)
	}
	e.onlyTarget(t, false)
}

// However an acquire that published and waited ends (its timeout, its
// ctx), it leaves no pending file, and the holder's lock is unchanged.
func TestPendingFileGoesHoweverTheAcquireEnds(t *testing.T) {
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

// A pending file whose write fails (a full disk at the waiter's second
// publish) ends the acquire with that error, and the pending file goes.
func TestPendingWriteFailureEndsTheAcquire(t *testing.T) {
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
		t.Fatal("the acquire took the lock although its pending file's write failed")
	}
	if !errors.Is(got.err, syscall.ENOSPC) {
		t.Errorf("err = %v; want the write's ENOSPC", got.err)
	}
	if n := ffs.Calls(faultfs.OpWrite, pendingGlob); n != 2 {
		t.Errorf("%d writes of a pending file; want 2 (one per publish)", n)
	}
	e.onlyTarget(t, false)
}

// A pending file whose close fails (a write-back error) leaves its bytes
// in doubt: it is never linked, the acquire fails with the close's error,
// and nothing is left. Kills "link a pending file whose close failed".
func TestPendingCloseFailureLinksNothing(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs := faultfs.New(e.fsys)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpClose, Match: pendingGlob, Err: syscall.EIO})
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(nil))
	if err == nil {
		h.Release()
		t.Fatal("the acquire succeeded although the pending file's close failed")
	}
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("err = %v; want the close's EIO", err)
	}
	if n := ffs.Calls(faultfs.OpLink, "log.json.lock"); n != 0 {
		t.Errorf("%d link() calls to the lock name of a pending file whose close failed; want 0", n)
	}
	e.onlyTarget(t, false)
}

// A pending file is written and closed before its link(), as the spec's
// step reads, and its name is removed only once every handle of it is
// closed (a FUSE volume renames a file removed while open to .fuse_hidden
// instead): after a publish that found the lock held, at the end of an
// acquire that times out, and after the publish that takes the lock.
func TestPendingClosedBeforeLinkAndRemoval(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	ffs := faultfs.New(e.fsys)
	var mu sync.Mutex
	open := map[string]int{}
	created, removed := 0, 0
	ffs.After(func(ev faultfs.Event) error {
		if ok, _ := path.Match(pendingGlob, path.Base(ev.Name)); !ok || ev.Err != nil {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		switch ev.Op {
		case faultfs.OpOpenFile:
			open[ev.Name]++
			if ev.Flag&os.O_CREATE != 0 {
				created++
			}
		case faultfs.OpClose:
			open[ev.Name]--
		}
		return nil
	})
	ffs.Before(func(ev faultfs.Event) error {
		if ok, _ := path.Match(pendingGlob, path.Base(ev.Name)); !ok {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		switch ev.Op {
		case faultfs.OpLink:
			if open[ev.Name] != 0 {
				t.Errorf("%s linked while open", ev.Name)
			}
		case faultfs.OpRemove:
			removed++
			if open[ev.Name] != 0 {
				t.Errorf("%s removed while open", ev.Name)
			}
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
	mu.Lock()
	defer mu.Unlock()
	if created < 2 || removed != created {
		t.Errorf("%d pending files created and %d removed; want one removal each, for at least 2", created, removed)
	}
}

// shortFS's pending files write half of what they are asked, and say so
// with no error (an io.Writer that breaks its contract).
type shortFS struct{ vfs.FS }

type shortFile struct{ vfs.File }

func (f shortFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if ok, _ := path.Match(pendingGlob, path.Base(name)); !ok {
		return file, nil
	}
	return shortFile{file}, nil
}

func (f shortFile) Write(p []byte) (int, error) { return f.File.Write(p[:len(p)/2]) }

// A pending file written short (a write that reports fewer bytes than
// asked, with no error) is never linked: the acquire fails with
// io.ErrShortWrite and nothing is left. Kills "link a pending file written
// short".
func TestPendingShortWriteIsNeverLinked(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs := faultfs.New(shortFS{e.fsys})
	h, err := lockspec.Acquire(context.Background(), ffs, target, fast(nil))
	if err == nil {
		h.Release()
		t.Fatal("the acquire published a pending file written short")
	}
	if n := ffs.Calls(faultfs.OpLink, "log.json.lock"); n != 0 {
		t.Errorf("%d link() calls to the lock name of a pending file written short; want 0", n)
	}
	e.onlyTarget(t, false)
}
