package lockspec_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// shortFS's pending files write half of what they are asked, and say so
// with no error (an io.Writer or io.WriterAt that breaks its contract): in
// Write when short is "write", in WriteAt when it is "writeat".
type shortFS struct {
	vfs.FS
	short string
	on    *atomic.Bool // writes are short only once it is set
}

type shortFile struct {
	vfs.File
	fs shortFS
}

func (f shortFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return shortFile{file, f}, nil
}

func (f shortFile) Write(p []byte) (int, error) {
	if f.fs.short == "write" && f.fs.on.Load() {
		return f.File.Write(p[:len(p)/2])
	}
	return f.File.Write(p)
}

func (f shortFile) WriteAt(p []byte, off int64) (int, error) {
	at := f.File.(io.WriterAt)
	if f.fs.short == "writeat" && f.fs.on.Load() {
		return at.WriteAt(p[:len(p)/2], off)
	}
	return at.WriteAt(p, off)
}

// A pending file written short (a write that reports fewer bytes than
// asked, with no error) is never linked: the lock is published whole, with
// the bytes of its hold and the acquiredAt of its publish, or not at all,
// and nothing is left.
func TestPendingShortWriteIsNeverLinked(t *testing.T) {
	for _, short := range []string{"write", "writeat"} {
		t.Run(short, func(t *testing.T) {
			e, holder, ffs, refused, opts := waiterOnHeldLock(t)
			var on atomic.Bool
			fsys := shortFS{ffs, short, &on}

			first := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
			later := first.Add(90*time.Minute + 1500*time.Millisecond)
			var clock atomic.Pointer[time.Time]
			clock.Store(&first)
			opts.Now = func() time.Time { return *clock.Load() }
			if short == "write" {
				on.Store(true) // the first write of the pending file
			}
			done := acquireAsync(context.Background(), fsys, opts)
			if short == "writeat" {
				receive(t, refused, patience, "the waiter's refused link()")
				clock.Store(&later)
				on.Store(true) // the rewrite in place
			}
			if err := holder.Release(); err != nil {
				t.Fatal(err)
			}
			got := receive(t, done, patience, "the acquire")
			if got.err != nil {
				e.onlyTarget(t, false) // not at all: nothing left
				return
			}
			raw := e.readRaw(t, lockP)
			var rec struct {
				AcquiredAt string `json:"acquiredAt"`
				Token      string `json:"token"`
			}
			if err := json.Unmarshal(raw, &rec); err != nil || rec.Token != got.h.Token() {
				t.Errorf("the published lock %q is not the hold's whole record (%v)", raw, err)
			} else if want := clock.Load().Format("2006-01-02T15:04:05.000Z"); rec.AcquiredAt != want {
				t.Errorf("acquiredAt %q; want %q, the time of the publish that took the lock", rec.AcquiredAt, want)
			}
			if err := got.h.Release(); err != nil {
				t.Errorf("release: %v", err)
			}
			e.onlyTarget(t, false)
		})
	}
}

// A record of another length than the kept pending file's (a clock that
// steps across year 9999: acquiredAt is then wider or narrower) is never
// rewritten in place over it, which would leave the old tail behind the
// new bytes: a new pending file is written, and the lock is the hold's.
func TestPendingOfAnotherLengthIsNotRewrittenInPlace(t *testing.T) {
	for _, tc := range []struct {
		name         string
		first, later time.Time
	}{
		{"narrower", time.Date(10000, 1, 2, 3, 4, 5, 6e6, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)},
		{"wider", time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC), time.Date(10000, 1, 2, 3, 4, 5, 6e6, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, holder, ffs, refused, opts := waiterOnHeldLock(t)
			var clock atomic.Pointer[time.Time]
			clock.Store(&tc.first)
			opts.Now = func() time.Time { return *clock.Load() }
			done := acquireAsync(context.Background(), ffs, opts)
			receive(t, refused, patience, "the waiter's refused link()")
			clock.Store(&tc.later)
			got := handOver(t, holder, done)
			raw := e.readRaw(t, lockP)
			var rec struct {
				AcquiredAt string `json:"acquiredAt"`
				Token      string `json:"token"`
			}
			if err := json.Unmarshal(raw, &rec); err != nil || rec.Token != got.Token() {
				t.Errorf("the published lock %q is not the hold's whole record (%v)", raw, err)
			}
			endHold(t, e, got)
		})
	}
}

// The kept pending file lives through the whole wait, where a fresh one
// lived from one create to its link(): a kept name removed meanwhile by
// anyone (an operator clearing pending files by hand) makes the next
// link() fail with ENOENT. That is no reason to fail the acquire, as a
// pending file written for each publish never did: the publish writes a
// fresh one and goes on.
func TestKeptPendingRemovedDuringTheWait(t *testing.T) {
	e, holder, ffs, refused, opts := waiterOnHeldLock(t)
	done := acquireAsync(context.Background(), ffs, opts)
	receive(t, refused, patience, "the waiter's refused link()")
	var removed int
	for _, name := range e.ls(t) {
		if ok, _ := path.Match(pendingGlob, name); ok {
			if err := e.fsys.Remove("d/" + name); err != nil {
				t.Fatal(err)
			}
			removed++
		}
	}
	if removed != 1 {
		t.Fatalf("%d pending files kept through the wait; the case wants 1", removed)
	}
	got := handOver(t, holder, done)
	endHold(t, e, got)
}

// A pending file that cannot be rewritten in place is written and closed
// before its link(), as the spec's step reads; and once a rewrite in place
// has been refused (errors.ErrUnsupported), no later pending file of that
// acquire is kept through a wait either.
func TestPendingNotKeptClosedBeforeLink(t *testing.T) {
	for _, tc := range noInPlace {
		t.Run(tc.name, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m, holder := holdLock(t, e)
			fsys, ffs := tc.wrap(e.fsys)
			var mu sync.Mutex
			open := map[string]bool{}
			refusals := 0
			twice := make(chan struct{}) // closed at the second refused link()
			var keptAtRead []string
			ffs.After(func(ev faultfs.Event) error {
				mu.Lock()
				defer mu.Unlock()
				if ok, _ := path.Match(pendingGlob, path.Base(ev.Name)); ok {
					switch ev.Op {
					case faultfs.OpOpenFile:
						open[ev.Name] = ev.Err == nil
					case faultfs.OpClose:
						open[ev.Name] = false
					case faultfs.OpLink:
						if open[ev.Name] && tc.name == "plain" {
							t.Errorf("%s linked while open, though it cannot be rewritten in place", ev.Name)
						}
						if errors.Is(ev.Err, fs.ErrExist) {
							refusals++
							if refusals == 2 {
								close(twice)
							}
						}
					}
				}
				return nil
			})
			// The second read of the lock finds it gone (once): the waiter
			// publishes again at once, while the lock is still held.
			reads := 0
			ffs.Before(func(ev faultfs.Event) error {
				if ev.Op != faultfs.OpOpenFile || ev.Name != lockP {
					return nil
				}
				mu.Lock()
				defer mu.Unlock()
				reads++
				if refusals >= 2 && keptAtRead == nil {
					keptAtRead = []string{}
					for _, name := range e.ls(t) {
						if strings.Contains(name, ".pending-") {
							keptAtRead = append(keptAtRead, name)
						}
					}
				}
				if reads == 1 {
					return syscall.ENOENT
				}
				return nil
			})
			opts := fast(m.Spawn())
			opts.Timeout = 10 * time.Second
			done := acquireAsync(context.Background(), fsys, opts)
			receive(t, twice, patience, "the second refused link()")
			got := handOver(t, holder, done)
			defer got.Release()
			mu.Lock()
			defer mu.Unlock()
			if refusals < 2 {
				t.Fatalf("%d refused link() calls; the case wants 2 while the lock is held", refusals)
			}
			if len(keptAtRead) > 0 {
				t.Errorf("pending file %q kept through the wait after its rewrite in place was refused", keptAtRead)
			}
		})
	}
}
