package lockspec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// told is one call of Options.OnWait or Options.OnBreak.
type told struct {
	lock     string
	holder   lockspec.Holder
	deadline time.Time // OnWait's
}

// String is the call in short, for a failure's message.
func (c told) String() string {
	return fmt.Sprintf("{%s: pid %d, token %s, %v}", c.lock, c.holder.PID, c.holder.Token, c.holder.State)
}

// observers returns o with OnWait and OnBreak recording their calls.
func observers(o lockspec.Options, waits, breaks *[]told) lockspec.Options {
	o.OnWait = func(lock string, h lockspec.Holder, deadline time.Time) {
		*waits = append(*waits, told{lock, h, deadline})
	}
	o.OnBreak = func(lock string, dead lockspec.Holder) { *breaks = append(*breaks, told{lock: lock, holder: dead}) }
	return o
}

// OnWait is told once per holder an acquire waits on, from the acquiring
// goroutine, before the wait: once for a live holder however many waits it
// takes, once more when another holder's lock replaces it, with the
// acquire's deadline; OnBreak is not told of anything, as no lock is
// broken. The lock is replaced, then removed, at the acquire's third and
// sixth wait (faultfs's OpWait, as the waiter starts to wait).
func TestOnWaitIsToldOncePerHolder(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		needWatch(t, e.fsys)
		m := locktest.NewMachine("host-a")
		first, second := m.Spawn(), m.Spawn()
		firstToken, secondToken := strings.Repeat("1a", 12), strings.Repeat("2b", 12)
		e.writeRaw(t, lockP, lockJSON(first.PID(), m.Hostname(), true, firstToken, time.Now()))
		ffs := faultfs.New(e.fsys)
		waits := 0
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op != faultfs.OpWait {
				return nil
			}
			switch waits++; waits {
			case 3:
				e.writeRaw(t, lockP, lockJSON(second.PID(), m.Hostname(), true, secondToken, time.Now()))
			case 6:
				if err := os.Remove(e.path(lockP)); err != nil {
					t.Error(err)
				}
			}
			return nil
		})
		var onWait, onBreak []told
		opts := observers(lockspec.Options{Host: m.Spawn(), PollInterval: time.Millisecond, Timeout: time.Minute}, &onWait, &onBreak)
		start := time.Now()
		h, err := lockspec.Acquire(context.Background(), ffs, target, opts)
		end := time.Now()
		if err != nil {
			t.Fatalf("Acquire: %v; want the lock once removed", err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		if waits < 6 {
			t.Fatalf("the acquire waited %d times; want 6 (the lock removed at the sixth)", waits)
		}
		if len(onWait) != 2 {
			t.Fatalf("OnWait was told %d times (%v); want twice, once per holder", len(onWait), onWait)
		}
		for i, want := range []struct {
			pid   int
			token string
		}{{first.PID(), firstToken}, {second.PID(), secondToken}} {
			got := onWait[i]
			if got.lock != lockP || got.holder.PID != want.pid || got.holder.Token != want.token || got.holder.State != lockspec.StateAlive {
				t.Errorf("OnWait #%d: lock %q, pid %d, token %q, state %v; want %q, pid %d, token %q, alive",
					i+1, got.lock, got.holder.PID, got.holder.Token, got.holder.State, lockP, want.pid, want.token)
			}
			if lo, hi := start.Add(opts.Timeout), end.Add(opts.Timeout); got.deadline.Before(lo) || got.deadline.After(hi) {
				t.Errorf("OnWait #%d: deadline %v; want the acquire's, between %v and %v", i+1, got.deadline, lo, hi)
			}
		}
		if len(onBreak) != 0 {
			t.Errorf("OnBreak was told %v; want nothing: no lock was broken", onBreak)
		}
	})
}

// OnBreak is told once of the one automatic break, with the dead holder
// as judged, and OnWait of nothing: a dead holder is broken at once, not
// waited on. An acquire that never waits (a free lock; NoWait against a
// live holder) and Unlock of a dead holder tell neither.
func TestOnBreakIsToldOfTheAutomaticBreak(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		dead := m.Spawn()
		dead.Kill()
		e.writeRaw(t, lockP, lockJSON(dead.PID(), m.Hostname(), true, strings.Repeat("de", 12), time.Now()))
		var onWait, onBreak []told
		opts := observers(fast(m.Spawn()), &onWait, &onBreak)
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatalf("Acquire: %v; want the dead holder's lock broken", err)
		}
		if len(onBreak) != 1 || onBreak[0].lock != lockP || onBreak[0].holder.PID != dead.PID() ||
			onBreak[0].holder.State != lockspec.StateDead || onBreak[0].holder.Token != strings.Repeat("de", 12) {
			t.Errorf("OnBreak was told %v; want once, of %s held by the dead pid %d", onBreak, lockP, dead.PID())
		}
		if len(onWait) != 0 {
			t.Errorf("OnWait was told %v; want nothing: a dead holder is not waited on", onWait)
		}

		// The lock is held now (by h, alive): NoWait gives up at once.
		onWait, onBreak = nil, nil
		noWait := opts
		noWait.Timeout = lockspec.NoWait
		if _, err := lockspec.Acquire(context.Background(), e.fsys, target, noWait); err == nil {
			t.Fatal("Acquire with NoWait against a live holder: want a timeout")
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		if h, err = lockspec.Acquire(context.Background(), e.fsys, target, opts); err != nil {
			t.Fatalf("Acquire of a free lock: %v", err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		e.writeRaw(t, lockP, lockJSON(dead.PID(), m.Hostname(), true, strings.Repeat("de", 12), time.Now()))
		judged, err := lockspec.Inspect(e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := lockspec.Unlock(context.Background(), e.fsys, target, judged, false, opts); err != nil {
			t.Fatalf("Unlock of a dead holder: %v", err)
		}
		if len(onWait)+len(onBreak) != 0 {
			t.Errorf("OnWait was told %v, OnBreak %v; want nothing (NoWait, a free lock, Unlock)", onWait, onBreak)
		}
	})
}

// OnBreak is told of a break that moved and removed the lock judged, and
// of nothing else: a break whose confirm finds another lock than the one
// judged (a second dead holder's, written at break:judged) leaves it, and
// the break of that second lock is the one told. OnWait is told of
// neither: a dead holder is broken, not waited on.
func TestOnBreakIsNotToldOfAChangedLock(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		second := m.Spawn()
		second.Kill()
		secondToken := strings.Repeat("5e", 12)
		var onWait, onBreak []told
		opts := observers(fast(m.Spawn()), &onWait, &onBreak)
		replaced := false
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepBreakJudged && !replaced {
				replaced = true
				e.writeRaw(t, lockP, lockJSON(second.PID(), m.Hostname(), true, secondToken, time.Now()))
			}
		})
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatalf("Acquire: %v; want both dead holders' locks broken in turn", err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		if len(onBreak) != 1 || onBreak[0].holder.PID != second.PID() || onBreak[0].holder.Token != secondToken {
			t.Errorf("OnBreak was told %v; want once, of the second dead holder (pid %d): the first break found the lock changed", onBreak, second.PID())
		}
		if len(onWait) != 0 {
			t.Errorf("OnWait was told %v; want nothing", onWait)
		}
	})
}

// A dead holder's lock that another breaker's live claim keeps from this
// writer is waited on, but OnWait is not told of it (its holder is
// provably dead; the wait is that breaker's break), nor OnBreak: the
// writer times out naming the claim.
func TestOnWaitIsNotToldOfADeadHolderBehindAClaim(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		breaker := m.Spawn() // alive: its claim stands
		claim := fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf(lock), lockspec.HostHash("host-a"), breaker.PID())
		e.writeRaw(t, claim, []byte(`{}`))
		var onWait, onBreak []told
		opts := observers(fast(m.Spawn()), &onWait, &onBreak)
		_, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		var te *lockspec.TimeoutError
		if !errors.As(err, &te) || te.Claim == nil || te.Claim.PID != breaker.PID() {
			t.Fatalf("Acquire: %v; want a timeout naming the claim of pid %d", err, breaker.PID())
		}
		if len(onWait)+len(onBreak) != 0 {
			t.Errorf("OnWait was told %v, OnBreak %v; want nothing", onWait, onBreak)
		}
	})
}
