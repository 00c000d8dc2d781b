package lockspec_test

// A finding of the real exFAT volume (docs/filesystems.md), pinned on the
// faultfs layer with no mount: the kernel looks both names up before it asks
// the volume to link, so exFAT's link() fails with ENOENT for a missing
// source and EEXIST for a name that exists, and with EPERM only otherwise.
// nolinkfs answers its errno in every case, so the shim's column never sees
// a link() that says EEXIST on a volume without hard links.

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// exclusive is o with the spec's exclusive create, the publish these
// tests of exFAT's link() answers are about.
func exclusive(o lockspec.Options) lockspec.Options {
	o.ExclusiveCreate = true
	return o
}

// exfatLinks makes ffs's link() answer as exFAT's does.
func exfatLinks(ffs *faultfs.FS, inner vfs.FS) {
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op != faultfs.OpLink {
			return nil
		}
		if _, err := inner.Lstat(ev.Name); errors.Is(err, fs.ErrNotExist) {
			return syscall.ENOENT
		}
		if _, err := inner.Lstat(ev.NewName); err == nil {
			return syscall.EEXIST
		}
		return syscall.EPERM
	})
}

// A writer that waits behind a live holder on exFAT gets EEXIST from each
// link() while the lock is held, learns nothing from it, and learns "no hard
// links" from the EPERM of the first link() once the name is free: it
// publishes by exclusive create, and no pending file is left.
func TestExFATLinkOrderWhileWaiting(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs := faultfs.New(e.fsys)
	exfatLinks(ffs, e.fsys)
	m := locktest.NewMachine("host-a")
	h1, err := lockspec.Acquire(context.Background(), ffs, target, exclusive(fast(m.Spawn())))
	if err != nil {
		t.Fatal(err)
	}
	if h1.HardLinks() {
		t.Fatal("the first hold took the lock by link() on exFAT")
	}
	linksBefore := ffs.Calls(faultfs.OpLink, "")
	var linkErrs []error
	ffs.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpLink {
			linkErrs = append(linkErrs, ev.Err)
		}
		return nil
	})
	polls := 0
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpOpenFile && ev.Name == lockP {
			polls++
			if polls == 5 {
				if err := h1.Release(); err != nil {
					t.Errorf("release: %v", err)
				}
			}
		}
		return nil
	})
	opts := exclusive(fast(m.Spawn()))
	opts.Timeout = 5 * time.Second
	var steps []lockspec.Step
	lockspec.SetOnStep(&opts, func(s lockspec.Step) { steps = append(steps, s) })
	h2, err := lockspec.Acquire(context.Background(), ffs, target, opts)
	if err != nil {
		t.Fatal(err)
	}
	if h2.HardLinks() || !hasStep(steps, lockspec.StepAcquireOpened) {
		t.Fatalf("after the wait: HardLinks=%v steps=%v; want the exclusive create", h2.HardLinks(), steps)
	}
	if err := h2.Commit([]byte(`["a"]`)); err != nil {
		t.Fatal(err)
	}
	if err := h2.Release(); err != nil {
		t.Fatal(err)
	}
	n := ffs.Calls(faultfs.OpLink, "") - linksBefore
	if n < 2 || !errors.Is(linkErrs[0], fs.ErrExist) || !errors.Is(linkErrs[len(linkErrs)-1], syscall.EPERM) {
		t.Fatalf("link() answered %v in the wait; want EEXIST while held, then one EPERM", linkErrs)
	}
	for _, err := range linkErrs[:len(linkErrs)-1] {
		if !errors.Is(err, fs.ErrExist) {
			t.Fatalf("link() answered %v in the wait; want EEXIST until the EPERM that ends it", linkErrs)
		}
	}
	e.wantRecords(t, "a")
	e.onlyTarget(t, true)
}

// On exFAT a breaker whose hold has only seen EEXIST from link() (the
// lock was held) and that moved a newer lock (after a forced unlock and a new
// holder inside its confirm-to-rename window) puts it back with link(): on
// the free name exFAT answers EPERM, so the bytes are copied by exclusive
// create; on a name a third writer took, EEXIST, and the moved lock is
// dropped, as with nolinkfs.
func TestExFATLinkOrderPutBack(t *testing.T) {
	for _, taken := range []bool{false, true} {
		e := newEstate(t, classes[0])
		ffs := faultfs.New(e.fsys)
		exfatLinks(ffs, e.fsys)
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		newer := lockJSON(m.Spawn().PID(), "host-a", true, "222222222222222222222222", time.Now())
		third := lockJSON(m.Spawn().PID(), "host-a", true, "333333333333333333333333", time.Now())
		var linkErrs []error
		ffs.After(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpLink {
				linkErrs = append(linkErrs, ev.Err)
			}
			return nil
		})
		opts := exclusive(fast(m.Spawn()))
		opts.Timeout = lockspec.NoWait
		var steps []lockspec.Step
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			steps = append(steps, s)
			switch {
			case s == lockspec.StepBreakConfirmed:
				// unlock --force and a new holder, inside the window
				e.writeRaw(t, lockP, newer)
				linkErrs = nil
			case s == lockspec.StepBreakMismatch && taken:
				e.writeRaw(t, lockP, third) // a third writer takes the free name
			}
		})
		_, err := lockspec.Acquire(context.Background(), ffs, target, opts)
		if !errors.Is(err, lockspec.ErrTimeout) {
			t.Fatalf("taken=%v: the breaker's acquire: %v; want a timeout behind the live lock", taken, err)
		}
		if !hasStep(steps, lockspec.StepBreakMismatch) {
			t.Fatalf("taken=%v: steps %v; want a break that moved the newer lock", taken, steps)
		}
		want, wantErr := newer, error(syscall.EPERM)
		if taken {
			want, wantErr = third, fs.ErrExist
		}
		if len(linkErrs) == 0 || !errors.Is(linkErrs[0], wantErr) {
			t.Errorf("taken=%v: the put-back's link() answered %v; want %v first", taken, linkErrs, wantErr)
		}
		if hasStep(steps, lockspec.StepBreakPutBackOpened) == taken {
			t.Errorf("taken=%v: steps %v; the put-back copies by exclusive create only onto the free name", taken, steps)
		}
		if got := e.readRaw(t, lockP); string(got) != string(want) {
			t.Fatalf("taken=%v: the lock holds %q after the put-back; want %q", taken, got, want)
		}
		if got := e.ls(t); len(got) != 1 {
			t.Fatalf("taken=%v: the folder holds %q after the put-back; want only the lock", taken, got)
		}
	}
}
