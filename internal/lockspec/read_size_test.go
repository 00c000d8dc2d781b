package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// TestLongLockIsUnreadable: a lock longer than the 64 KiB the lock reads is
// unreadable, even when its first 64 KiB are a whole lock of a dead holder
// of this host followed by nothing but JSON whitespace: it is never broken,
// the write times out naming it as unreadable, and it stays byte for byte.
func TestLongLockIsUnreadable(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		long := append(bytes.Clone(lock), strings.Repeat(" ", 100<<10)...)
		e.writeRaw(t, lockP, long)

		o := fast(m.Spawn())
		h, err := lockspec.Inspect(e.fsys, target, o)
		if err != nil {
			t.Fatal(err)
		}
		if h.State != lockspec.StateUnreadable || h.Size != int64(len(long)) {
			t.Errorf("Inspect = state %v, size %d; want unreadable, %d bytes", h.State, h.Size, len(long))
		}
		o.Timeout = lockspec.NoWait
		err = lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), o)
		var te *lockspec.TimeoutError
		if !errors.As(err, &te) || te.Holder.State != lockspec.StateUnreadable {
			t.Fatalf("a write beside a 100 KiB lock = %v; want a timeout naming an unreadable lock", err)
		}
		if !bytes.Equal(e.readRaw(t, lockP), long) {
			t.Errorf("the long lock changed")
		}
	})
}

// A lock of exactly MaxLockBytes is read like any other (a dead holder's,
// padded with JSON white space to the cap, is judged dead); one byte more
// and it is unreadable.
func TestLockAtTheCapIsRead(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		for size, want := range map[int]lockspec.State{lockspec.MaxLockBytes: lockspec.StateDead, lockspec.MaxLockBytes + 1: lockspec.StateUnreadable} {
			e.writeRaw(t, lockP, append(bytes.Clone(lock), strings.Repeat(" ", size-len(lock))...))
			h, err := lockspec.Inspect(e.fsys, target, fast(m.Spawn()))
			if err != nil || h.State != want {
				t.Errorf("a lock of %d bytes: state %v (%v); want %v", size, h.State, err, want)
			}
		}
	})
}
