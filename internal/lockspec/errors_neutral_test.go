package lockspec_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// neutral checks that msg, a library error's Error(), names the lock and
// the holder (each of want) and speaks for no program: no `pa` command, no
// --force and no advice on when to use it. What clears a lock is the
// caller's to say (pa's words are in cmd/pa).
func neutral(t *testing.T, what, msg string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: %q does not name %q", what, msg, w)
		}
	}
	for _, bad := range []string{"pa ", "dispatch unlock", "--force", "only once", "clear it"} {
		if strings.Contains(msg, bad) {
			t.Errorf("%s: %q holds %q; want a neutral message", what, msg, bad)
		}
	}
}

// The errors of a held lock, as Acquire and Unlock return them, name the
// lock and its holder, and no command of pa's.
func TestErrorsAreNeutral(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	holder, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	o := fast(m.Spawn())
	o.Timeout = 20 * time.Millisecond
	held, err := lockspec.Inspect(e.fsys, target, o)
	if err != nil {
		t.Fatal(err)
	}
	pid := "pid " + strconv.Itoa(held.PID) + ` on host "host-a" (alive`

	_, err = lockspec.Acquire(context.Background(), e.fsys, target, o)
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, lockspec.ErrTimeout) {
		t.Fatalf("Acquire beside a live holder = %v; want a *TimeoutError", err)
	}
	neutral(t, "timeout", err.Error(), "lock "+lockP+" held by "+pid, ": gave up after ")

	err = lockspec.Unlock(context.Background(), e.fsys, target, held, false, o)
	var re *lockspec.RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("Unlock of a live holder = %v; want a *RefusedError", err)
	}
	neutral(t, "refusal", err.Error(), "lock "+lockP+" held by "+pid, ": not removed")
}

// Every shape of the three errors, built as data: each names the lock (its
// name escaped), the holder, and what the shape adds (the wait, the
// claim's owner), and no command.
func TestErrorShapesAreNeutral(t *testing.T) {
	const lock = "d/evil\x1b.json.lock"
	const shown = `d/evil\x1b.json.lock`
	claim := lockspec.ClaimOwner{Claim: "d/evil.json.lock.claim-0123456789abcdef-0a1b2c3d-42-00", HostHash: "0a1b2c3d", PID: 42}
	claimShown := "pid 42 (host 0a1b2c3d, claim evil.json.lock.claim-0123456789abcdef-0a1b2c3d-42-00)"
	for _, h := range []struct {
		h    lockspec.Holder
		lead string
	}{
		{lockspec.Holder{PID: 7, Hostname: "h", HasHostname: true, State: lockspec.StateAlive}, `held by pid 7 on host "h" (alive, `},
		{lockspec.Holder{PID: 7, Hostname: "h\x1b[2J", HasHostname: true, State: lockspec.StateOtherHost}, `held by pid 7 on host "h\x1b[2J" (on another host, `},
		{lockspec.Holder{PID: 7, State: lockspec.StateDead}, `held by pid 7 on no hostname (this host) (dead, `},
		{lockspec.Holder{State: lockspec.StateUnreadable}, `is an empty lock (0 bytes, `},
		{lockspec.Holder{State: lockspec.StateUnreadable, Size: 5}, `is an unreadable lock (5 bytes, `},
	} {
		lead := "lock " + shown + " " + h.lead
		neutral(t, "timeout", (&lockspec.TimeoutError{Lock: lock, Waited: 1500 * time.Millisecond, Holder: h.h}).Error(), lead, ": gave up after 2s")
		neutral(t, "timeout behind a claim", (&lockspec.TimeoutError{Lock: lock, Waited: time.Second, Holder: h.h, Claim: &claim}).Error(),
			lead, ": gave up after 1s; "+claimShown+" is breaking it")
		neutral(t, "refusal", (&lockspec.RefusedError{Lock: lock, Holder: h.h}).Error(), lead, ": not removed")
		neutral(t, "busy", (&lockspec.BusyError{Lock: lock, Holder: h.h, Claim: claim}).Error(), lead, ": not removed, "+claimShown+" is breaking it")
	}
}
