package locking_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"path"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/faultfs"
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
			e := newEstate(t, classes[0])
			m, holder := holdLock(t, e)
			ffs := faultfs.New(e.fsys)
			refused := firstLinkRefused(ffs)
			var on atomic.Bool
			fsys := shortFS{ffs, short, &on}

			first := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
			later := first.Add(90*time.Minute + 1500*time.Millisecond)
			var clock atomic.Pointer[time.Time]
			clock.Store(&first)
			opts := fast(m.Spawn())
			opts.Timeout = 10 * time.Second
			opts.Now = func() time.Time { return *clock.Load() }
			if short == "write" {
				on.Store(true) // the first write of the pending file
			}
			done := acquireAsync(context.Background(), fsys, opts)
			if short == "writeat" {
				<-refused
				clock.Store(&later)
				on.Store(true) // the rewrite in place
			}
			if err := holder.Release(); err != nil {
				t.Fatal(err)
			}
			got := <-done
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
			e := newEstate(t, classes[0])
			m, holder := holdLock(t, e)
			ffs := faultfs.New(e.fsys)
			refused := firstLinkRefused(ffs)
			var clock atomic.Pointer[time.Time]
			clock.Store(&tc.first)
			opts := fast(m.Spawn())
			opts.Timeout = 10 * time.Second
			opts.Now = func() time.Time { return *clock.Load() }
			done := acquireAsync(context.Background(), ffs, opts)
			<-refused
			clock.Store(&tc.later)
			if err := holder.Release(); err != nil {
				t.Fatal(err)
			}
			got := <-done
			if got.err != nil {
				t.Fatal(got.err)
			}
			raw := e.readRaw(t, lockP)
			var rec struct {
				AcquiredAt string `json:"acquiredAt"`
				Token      string `json:"token"`
			}
			if err := json.Unmarshal(raw, &rec); err != nil || rec.Token != got.h.Token() {
				t.Errorf("the published lock %q is not the hold's whole record (%v)", raw, err)
			}
			if err := got.h.Fence(); err != nil {
				t.Errorf("fence: %v", err)
			}
			if err := got.h.Release(); err != nil {
				t.Errorf("release: %v", err)
			}
			e.onlyTarget(t, false)
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
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	ffs := faultfs.New(e.fsys)
	refused := firstLinkRefused(ffs)
	opts := fast(m.Spawn())
	opts.Timeout = 10 * time.Second
	done := acquireAsync(context.Background(), ffs, opts)
	<-refused
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
	if err := holder.Release(); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil {
		t.Fatalf("acquire: %v; want the lock, by a fresh pending file", got.err)
	}
	if err := got.h.Fence(); err != nil {
		t.Errorf("fence: %v", err)
	}
	if err := got.h.Release(); err != nil {
		t.Errorf("release: %v", err)
	}
	e.onlyTarget(t, false)
}
