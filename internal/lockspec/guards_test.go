package lockspec_test

// Guards found unpinned by a hostile review, each with a test that fails
// when its guard is removed.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func keyOf(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:8]) }

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

// A claim on the same lock by a breaker on another host is never judged by
// its pid here: unlock backs off and names it. Kills "claim-otherhost-dead".
func TestOtherHostClaimIsLive(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		const pid = 4343 // never spawned on host-a: it would read as dead
		claim := fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf(lock), lockspec.HostHash("host-b"), pid)
		e.writeRaw(t, claim, []byte(`{}`))
		op := fast(m.Spawn())
		held, err := lockspec.Inspect(e.fsys, target, op)
		if err != nil {
			t.Fatal(err)
		}
		err = lockspec.Unlock(context.Background(), e.fsys, target, held, false, op)
		var be *lockspec.BusyError
		if !errors.As(err, &be) || be.Claim.PID != pid {
			t.Fatalf("unlock = %v; want a *BusyError naming pid %d of host-b", err, pid)
		}
		if !e.exists(claim) || !bytes.Equal(e.readRaw(t, lockP), lock) {
			t.Fatal("another host's claim or the lock was touched")
		}
		if n := m.Asked(pid); n != 0 {
			t.Fatalf("another host's claim pid was checked %d times", n)
		}
	})
}

// A fence that cannot read the lock must refuse the commit. Kills
// "fence-readerr-ok".
func TestFenceReadErrorRefuses(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		opts := fast(nil)
		opts.Timeout = lockspec.NoWait
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepCommitTempWritten {
				ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "log.json.lock", Err: syscall.EIO, Times: 1})
			}
		})
		err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), opts)
		if err == nil || !errors.Is(err, syscall.EIO) {
			t.Fatalf("err = %v; want the fence's read error", err)
		}
		if e.exists(target) {
			t.Fatal("committed although the fence could not read the lock")
		}
	})
}

// The class is learned per hold from link() alone: EEXIST proves nothing,
// so a writer that waited on a held lock on the hard-links class still
// publishes by link() (no acquire:opened); on the other class it makes one
// failing link() in the whole wait and then only exclusive opens. Kills
// "class-eexist-nolinks" and "class-always-link".
func TestClassLearnedFromLinkOnly(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		m := locktest.NewMachine("host-a")
		h1, err := lockspec.Acquire(context.Background(), ffs, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		linksBefore := ffs.Calls(faultfs.OpLink, "")
		polls := 0
		opts := fast(m.Spawn())
		opts.Timeout = 5 * time.Second
		var steps []lockspec.Step
		lockspec.SetOnStep(&opts, func(s lockspec.Step) { steps = append(steps, s) })
		ffs.Before(func(ev faultfs.Event) error {
			// Release the first holder after the waiter has tried a few times.
			if ev.Op == faultfs.OpOpenFile && ev.Name == lockP {
				polls++
				if polls == 5 {
					go h1.Release()
				}
			}
			return nil
		})
		h2, err := lockspec.Acquire(context.Background(), ffs, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer h2.Release()
		links := ffs.Calls(faultfs.OpLink, "") - linksBefore
		if e.class == "links" {
			if !h2.HardLinks() || hasStep(steps, lockspec.StepAcquireOpened) {
				t.Fatalf("after waiting on a held lock the hold left link(): HardLinks=%v steps=%v", h2.HardLinks(), steps)
			}
		} else if links != 1 {
			t.Fatalf("without hard links the waiting hold made %d link() calls, want 1", links)
		}
	})
}

// Rows R39/R48 (kill after the put-back): at release:put-back the newer
// lock is back under the lock name and the moved name is still there (it is
// what the next write sweeps); at release:put-back-opened (no hard links)
// the lock name holds an empty file. Kills "step-putback-late" and
// "step-putback-opened-late".
func TestPutBackStepsSeeTheRowsState(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		old, newer := m.Spawn(), m.Spawn()
		var newBytes []byte
		sawPutBack, sawOpened := false, false
		opts := fast(old)
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			switch s {
			case lockspec.StepReleasePutBackOpened:
				sawOpened = true
				if got := e.readRaw(t, lockP); len(got) != 0 {
					t.Errorf("at %s the lock holds %q, want an empty file", s, got)
				}
			case lockspec.StepReleasePutBack:
				sawPutBack = true
				if got := e.readRaw(t, lockP); !bytes.Equal(got, newBytes) {
					t.Errorf("at %s the lock holds %q, want the newer lock", s, got)
				}
				moved := false
				for _, n := range e.ls(t) {
					moved = moved || strings.Contains(n, ".broken-")
				}
				if !moved {
					t.Errorf("at %s the moved name is already gone: %q", s, e.ls(t))
				}
			}
		})
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(e.path(lockP)); err != nil { // unlock --force
			t.Fatal(err)
		}
		h2, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(newer))
		if err != nil {
			t.Fatal(err)
		}
		newBytes = e.readRaw(t, lockP)
		if err := h.Release(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("release: %v", err)
		}
		if !sawPutBack || sawOpened != (e.class == "nolinks") {
			t.Fatalf("put-back steps seen: put-back=%v opened=%v", sawPutBack, sawOpened)
		}
		_ = h2.Release()
	})
}

// A directory under the lock name is not a lock: never broken, unlock
// --force refuses it (nothing moved), and a symbolic link there is judged
// unreadable without being followed and removed by --force.
func TestOddLockNamesAndUnlock(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		if err := os.MkdirAll(e.path(lockP+"/inside"), 0o755); err != nil {
			t.Fatal(err)
		}
		held, err := lockspec.Inspect(e.fsys, target, fast(nil))
		if err != nil || held.State != lockspec.StateUnreadable || held.Mode&fs.ModeDir == 0 {
			t.Fatalf("Inspect = %+v, %v; want an unreadable directory", held, err)
		}
		contains(t, lockspec.Describe(held), "a directory")
		err = lockspec.Unlock(context.Background(), e.fsys, target, held, true, fast(nil))
		if !errors.Is(err, lockspec.ErrNotALock) {
			t.Fatalf("unlock --force of a directory: %v, want ErrNotALock", err)
		}
		if got := e.ls(t); len(got) != 1 || got[0] != "log.json.lock" {
			t.Fatalf("folder holds %q, want the directory left where it was", got)
		}
		if err := os.RemoveAll(e.path(lockP)); err != nil {
			t.Fatal(err)
		}
		live := lockJSON(os.Getpid(), hostname(t), true, "111111111111111111111111", time.Now())
		e.writeRaw(t, "d/real", live)
		if err := os.Symlink("real", e.path(lockP)); err != nil {
			t.Fatal(err)
		}
		held, err = lockspec.Inspect(e.fsys, target, fast(nil))
		if err != nil || held.State != lockspec.StateUnreadable || held.Mode&fs.ModeSymlink == 0 {
			t.Fatalf("Inspect of a symlink = %+v, %v; want it unreadable, not followed", held, err)
		}
		if err := lockspec.Unlock(context.Background(), e.fsys, target, held, true, fast(nil)); err != nil {
			t.Fatalf("unlock --force of a symlink: %v", err)
		}
		if got := e.ls(t); len(got) != 1 || got[0] != "real" {
			t.Fatalf("folder holds %q, want the symlink gone and its target left", got)
		}
		if !bytes.Equal(e.readRaw(t, "d/real"), live) {
			t.Fatal("the symlink's target was touched")
		}
	})
}

// The spec's windows are the defaults.
func TestDefaultWindows(t *testing.T) {
	if lockspec.DefaultTimeout != 10*time.Second ||
		lockspec.DefaultUnlockBusyWait != time.Second || lockspec.DefaultPollInterval != 10*time.Millisecond {
		t.Fatalf("windows %v %v %v; want the spec's 10s, 1s and about 10ms",
			lockspec.DefaultTimeout, lockspec.DefaultUnlockBusyWait, lockspec.DefaultPollInterval)
	}
}

// Every name beside the lock ends with its host (8 hex), its pid and a
// 24-hex attempt token, and the token is 24 hex (R27's shape).
func TestAttemptTokenShape(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		shape := regexp.MustCompile(`\.(pending|broken|tmp)-[0-9a-f]{8}-[0-9]+-[0-9a-f]{24}$|\.claim-[0-9a-f]{16}-[0-9a-f]{8}-[0-9]+-[0-9a-f]{24}$`)
		var bad []string
		seen := 0
		ffs.Before(func(ev faultfs.Event) error {
			name := ev.Name
			if ev.Op == faultfs.OpRename {
				name = ev.NewName
			}
			if strings.ContainsAny(name, "-") && (ev.Op == faultfs.OpOpenFile || ev.Op == faultfs.OpRename) {
				seen++
				if !shape.MatchString(name) {
					bad = append(bad, name)
				}
			}
			return nil
		})
		e.writeRaw(t, lockP, lockJSON(locktest.DeadPID(t), hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
		if err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), fast(nil)); err != nil {
			t.Fatal(err)
		}
		if seen < 4 || len(bad) > 0 {
			t.Fatalf("%d names seen; not of the spec's shape: %q", seen, bad)
		}
	})
}

// A hold that is released commits nothing more.
func TestCommitAfterReleaseRefused(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(nil))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		if err := h.Commit([]byte(`["late"]`)); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("commit after release: %v, want ErrLockLost", err)
		}
		if e.exists(target) {
			t.Fatal("a released hold committed")
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

// A retry after a lost lock gets only the time left of the one timeout
// from Update's start, not a fresh timeout: fenced out once, then blocked by
// a live holder, Update gives up about one timeout after it began.
func TestRetryGetsOnlyTheTimeLeft(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		newer := m.Spawn()
		opts := fast(m.Spawn())
		// Durations doubled from 1s so that a loaded machine keeps 700ms
		// between the bound and both outcomes (2s: right; 3.4s: a fresh
		// timeout).
		opts.Timeout = 2 * time.Second
		forced := false
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepHoldRead && !forced {
				// A slow first hold: it uses 1.4s of the 2s timeout
				// before its fence finds the loss (a duration, not an
				// ordering of events).
				time.Sleep(1400 * time.Millisecond)
			}
			if s == lockspec.StepCommitTempWritten && !forced {
				forced = true // unlock --force, and a live holder takes the lock
				_ = os.Remove(e.path(lockP))
				if _, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(newer)); err != nil {
					t.Error(err)
				}
			}
		})
		start := time.Now()
		err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
		took := time.Since(start)
		switch {
		case errors.Is(err, lockspec.ErrTimeout):
		case errors.Is(err, lockspec.ErrLockLost) && took >= opts.Timeout:
			// A loaded machine spent the rest of the timeout before the
			// retry could start: the lost lock is reported, as right as
			// the timeout (no fresh timeout either way).
		default:
			t.Fatalf("err = %v after %v, want a timeout naming the newer holder (or, once the 2s ran out, the lost lock)", err, took)
		}
		if took > 2700*time.Millisecond {
			t.Fatalf("Update took %v with a 2s timeout: the retry got a fresh timeout", took)
		}
		if e.exists(target) {
			t.Fatal("a fenced-out writer committed")
		}
	})
}

// A release whose lock is gone (forced out, nobody took it) reports the
// loss; a breaker whose lock vanished between its confirm and its rename
// publishes its own at once.
func TestVanishedLocks(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(nil))
		if err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(e.path(lockP))
		if err := h.Release(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("release of a vanished lock: %v, want ErrLockLost", err)
		}
		e.writeRaw(t, lockP, lockJSON(locktest.DeadPID(t), hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
		opts := fast(nil)
		opts.Timeout = lockspec.NoWait
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepBreakConfirmed {
				_ = os.Remove(e.path(lockP)) // another unlock got there first
			}
		})
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), opts); err != nil {
			t.Fatalf("a breaker whose lock vanished: %v", err)
		}
		e.wantRecords(t, "a")
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

// A claim's key is 16 hex of the sha256 of the lock's bytes judged, so
// breakers of different locks never see each other's claims.
func TestClaimKeyIsTheLocksHash(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		ffs := faultfs.New(e.fsys)
		var claims []string
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpOpenFile && strings.Contains(ev.Name, ".claim-") {
				claims = append(claims, ev.Name)
			}
			return nil
		})
		opts := fast(m.Spawn())
		opts.Timeout = lockspec.NoWait
		if err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), opts); err != nil {
			t.Fatal(err)
		}
		want := "d/log.json.lock.claim-" + keyOf(lock) + "-"
		if len(claims) != 1 || !strings.HasPrefix(claims[0], want) {
			t.Fatalf("claims %q, want one named %s...", claims, want)
		}
	})
}
