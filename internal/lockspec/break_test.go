package lockspec_test

// The break of a provably dead holder: the confirm, the claims.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Confirm re-checks deadness: a holder judged dead whose pid answers again
// by the confirm (a reused pid) is never moved. Kills "confirm-dead".
func TestConfirmRechecksDeadness(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		p := m.Spawn()
		p.Kill()
		lock := lockJSON(p.PID(), "host-a", true, "deaddeaddeaddeaddeaddead", time.Now())
		e.writeRaw(t, lockP, lock)
		opts := fast(m.Spawn())
		opts.Timeout = 50 * time.Millisecond
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepBreakClaimed {
				m.Revive(p.PID()) // the pid is reused between judge and confirm
			}
		})
		_, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		var te *lockspec.TimeoutError
		if !errors.As(err, &te) || te.Holder.State != lockspec.StateAlive {
			t.Fatalf("err = %v; want a timeout naming a live holder", err)
		}
		if !bytes.Equal(e.readRaw(t, lockP), lock) {
			t.Fatal("a lock whose pid answered at the confirm was moved")
		}
	})
}

// A dead breaker's claim that appears after the sweep (a breaker killed at
// break:claimed while this writer waits) is removed by the listing, and the
// break goes on at once. Kills "claim-deadbusy".
func TestDeadClaimSeenAtListingIsRemoved(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		ghost := m.Spawn()
		ghost.Kill()
		claim := fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf(lock), lockspec.HostHash("host-a"), ghost.PID())
		opts := fast(m.Spawn())
		opts.Timeout = lockspec.NoWait
		made := false
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepBreakJudged && !made { // after the sweep
				made = true
				e.writeRaw(t, claim, []byte(`{}`))
			}
		})
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), opts); err != nil {
			t.Fatalf("a dead breaker's claim blocked the break: %v", err)
		}
		e.onlyTarget(t, true)
	})
}

// A live claim on another lock (another key) does not hold up the break of
// this one, and is left alone.
func TestClaimOfAnotherLockIgnored(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		other := m.Spawn()
		claim := fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf([]byte("another lock")), lockspec.HostHash("host-a"), other.PID())
		e.writeRaw(t, claim, []byte(`{}`))
		opts := fast(m.Spawn())
		opts.Timeout = lockspec.NoWait
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), opts); err != nil {
			t.Fatalf("a live claim on another lock held up the break: %v", err)
		}
		if !e.exists(claim) {
			t.Fatal("a live claim was removed")
		}
	})
}
