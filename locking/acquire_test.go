package locking_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// R01: a free lock is taken whole and released, nothing left beside the
// guarded file.
func TestFreeLockTakenWholeAndReleased(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		var steps []locking.Step
		opts := fast(nil)
		opts.OnStep = func(s locking.Step) { steps = append(steps, s) }
		h, err := locking.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		lock := e.readRaw(t, lockP)
		holder, err := locking.Inspect(e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		if holder.PID != os.Getpid() || holder.Hostname != hostname(t) || holder.Token != h.Token() || len(h.Token()) != 24 || holder.State != locking.StateAlive {
			t.Fatalf("lock %s judged %+v, want this process's with token %s", lock, holder, h.Token())
		}
		if _, err := time.Parse(time.RFC3339Nano, holder.AcquiredAt); err != nil {
			t.Errorf("acquiredAt %q is not ISO 8601: %v", holder.AcquiredAt, err)
		}
		if got := e.ls(t); len(got) != 1 || got[0] != "log.json.lock" {
			t.Fatalf("while held the folder holds %q, want the lock only", got)
		}
		if err := h.Commit([]byte(`["a"]`)); err != nil {
			t.Fatal(err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		e.onlyTarget(t, true)
		want := map[string][]locking.Step{
			"links":   {locking.StepAcquirePending, locking.StepAcquirePublished},
			"nolinks": {locking.StepAcquirePending, locking.StepAcquireOpened, locking.StepAcquirePublished},
		}[e.class]
		want = append(want, locking.StepCommitTempWritten, locking.StepCommitFenced, locking.StepCommitRenamed,
			locking.StepReleaseRenamed, locking.StepReleaseRemoved)
		if !equalSteps(steps, want) {
			t.Fatalf("steps = %v, want %v", steps, want)
		}
		if h.HardLinks() != (e.class == "links") {
			t.Fatalf("HardLinks() = %v on class %s", h.HardLinks(), e.class)
		}
	})
}

func equalSteps(a, b []locking.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// R02: a lock held by a live process times out naming the holder, and is
// left byte for byte.
func TestLiveHolderTimesOutNamingIt(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		pid := locktest.LivePID(t)
		lock := lockJSON(pid, hostname(t), true, "00112233445566778899aabb", time.Now())
		e.writeRaw(t, lockP, lock)
		opts := fast(nil)
		opts.Timeout = 150 * time.Millisecond
		start := time.Now()
		err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
		waited := time.Since(start)
		var te *locking.TimeoutError
		if !errors.As(err, &te) || !errors.Is(err, locking.ErrTimeout) {
			t.Fatalf("err = %v, want *TimeoutError", err)
		}
		if te.Holder.PID != pid || te.Holder.State != locking.StateAlive || te.Lock != lockP {
			t.Fatalf("holder = %+v on %s, want pid %d alive on %s", te.Holder, te.Lock, pid, lockP)
		}
		contains(t, err.Error(), strconv.Itoa(pid), "pa dispatch unlock", "alive", lockP)
		if waited < 150*time.Millisecond || waited > 5*time.Second {
			t.Errorf("waited %v, want about the 150ms timeout", waited)
		}
		if got := e.readRaw(t, lockP); !bytes.Equal(got, lock) {
			t.Fatalf("lock changed to %q", got)
		}
		if got := e.ls(t); len(got) != 1 {
			t.Fatalf("folder holds %q, want the lock only", got)
		}
	})
}

// R04: a lock left by a dead process on this host is broken at once, with
// or without a hostname.
func TestDeadHolderBrokenAtOnce(t *testing.T) {
	for _, withHost := range []bool{true, false} {
		t.Run("hostname="+strconv.FormatBool(withHost), func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				pid := locktest.DeadPID(t)
				e.writeRaw(t, lockP, lockJSON(pid, hostname(t), withHost, "00112233445566778899aabb", time.Now()))
				held, err := locking.Inspect(e.fsys, target, fast(nil))
				if err != nil || held.State != locking.StateDead {
					t.Fatalf("Inspect = %+v, %v; want a dead holder", held, err)
				}
				opts := fast(nil)
				opts.Timeout = locking.NoWait // at once: no wait allowed
				var steps []locking.Step
				opts.OnStep = func(s locking.Step) { steps = append(steps, s) }
				if err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts); err != nil {
					t.Fatal(err)
				}
				e.wantRecords(t, "a")
				e.onlyTarget(t, true)
				for _, s := range []locking.Step{locking.StepBreakJudged, locking.StepBreakClaimed, locking.StepBreakConfirmed, locking.StepBreakRenamed, locking.StepBreakRemoved} {
					if !hasStep(steps, s) {
						t.Errorf("the break did not pass %s: %v", s, steps)
					}
				}
			})
		})
	}
}

func hasStep(steps []locking.Step, s locking.Step) bool {
	for _, x := range steps {
		if x == s {
			return true
		}
	}
	return false
}

// R05: an empty or unreadable lock is never broken, at any age, and the
// timeout names it.
func TestUnreadableLockNeverBroken(t *testing.T) {
	dead := locktest.DeadPID(t)
	cases := map[string][]byte{
		"empty":          {},
		"garbage":        []byte("not json"),
		"array":          []byte(`[1,2]`),
		"null":           []byte(`null`),
		"pid string":     []byte(`{"pid":"` + strconv.Itoa(dead) + `"}`),
		"pid fraction":   []byte(`{"pid":1.5}`),
		"pid zero":       []byte(`{"pid":0}`),
		"pid negative":   []byte(`{"pid":-1}`),
		"pid huge":       []byte(`{"pid":99999999999}`),
		"no pid":         []byte(`{"hostname":"x"}`),
		"truncated":      []byte(`{"pid":` + strconv.Itoa(dead)),
		"trailing":       []byte(`{"pid":` + strconv.Itoa(dead) + `} {}`),
		"hostname int":   []byte(`{"pid":` + strconv.Itoa(dead) + `,"hostname":7}`),
		"binary":         {0x00, 0xff, 0x1b, '[', '2', 'J', 0x80, 0x07},
		"ten megabytes":  append([]byte(`{"pid":`+strconv.Itoa(dead)+`,"pad":"`), bytes.Repeat([]byte("x"), 10<<20)...),
		"megabytes json": []byte(`{"pid":` + strconv.Itoa(dead) + `,"pad":"` + strings.Repeat("y", 70<<10) + `"}`),
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				e.writeRaw(t, lockP, content)
				old := time.Now().Add(-365 * 24 * time.Hour)
				if err := os.Chtimes(e.path(lockP), old, old); err != nil {
					t.Fatal(err)
				}
				opts := fast(nil)
				opts.Timeout = 30 * time.Millisecond
				err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
				var te *locking.TimeoutError
				if !errors.As(err, &te) {
					t.Fatalf("err = %v, want *TimeoutError", err)
				}
				if te.Holder.State != locking.StateUnreadable {
					t.Fatalf("state = %v, want unreadable", te.Holder.State)
				}
				if te.Holder.Age < 364*24*time.Hour {
					t.Errorf("age = %v, want the file time's (a year)", te.Holder.Age)
				}
				contains(t, err.Error(), "pa dispatch unlock --force", lockP)
				if !strings.Contains(err.Error(), "an empty lock") && !strings.Contains(err.Error(), "an unreadable lock") {
					t.Errorf("%q does not name an empty or unreadable lock", err)
				}
				if len(err.Error()) > 1000 {
					t.Errorf("message is %d bytes long, want it bounded", len(err.Error()))
				}
				if strings.ContainsAny(err.Error(), "\x00\x1b\x07") {
					t.Errorf("message holds raw control bytes: %q", err.Error())
				}
				if got := e.readRaw(t, lockP); !bytes.Equal(got, content) {
					t.Fatalf("lock changed (%d bytes, want %d)", len(got), len(content))
				}
				if e.exists(target) {
					t.Fatal("the guarded file was written under an unreadable lock")
				}
			})
		})
	}
}

// R06: a holder on another host is never broken, at any age, and its pid is
// never checked here.
func TestOtherHostNeverBrokenNorAsked(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		here := locktest.NewMachine("host-a")
		const otherPID = 4242 // never spawned on host-a: it would read as dead
		for _, age := range []time.Duration{0, 2 * time.Minute, 11 * time.Minute, 24 * time.Hour} {
			lock := lockJSON(otherPID, "host-b", true, "00112233445566778899aabb", time.Now().Add(-age))
			e.writeRaw(t, lockP, lock)
			old := time.Now().Add(-age)
			_ = os.Chtimes(e.path(lockP), old, old)
			opts := fast(here.Spawn())
			opts.Timeout = 30 * time.Millisecond
			err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
			var te *locking.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != locking.StateOtherHost {
				t.Fatalf("age %v: err = %v, want a timeout naming a holder on another host", age, err)
			}
			contains(t, err.Error(), "host-b", "on another host", "--force")
			if n := here.Asked(otherPID); n != 0 {
				t.Fatalf("age %v: the other host's pid was checked %d times", age, n)
			}
			if got := e.readRaw(t, lockP); !bytes.Equal(got, lock) {
				t.Fatalf("age %v: lock changed to %q", age, got)
			}
		}
	})
}

// R07 and R03: a reused pid (any live process that is not the holder) reads
// as a live holder and is never broken, at any age: past the stale window,
// at 11 minutes and at one hour.
func TestReusedPIDReadsAliveAtAnyAge(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		pid := locktest.LivePID(t)
		for _, age := range []time.Duration{61 * time.Second, 11 * time.Minute, time.Hour, 2 * 365 * 24 * time.Hour} {
			lock := lockJSON(pid, hostname(t), true, "00112233445566778899aabb", time.Now().Add(-age))
			e.writeRaw(t, lockP, lock)
			old := time.Now().Add(-age)
			_ = os.Chtimes(e.path(lockP), old, old)
			opts := fast(nil)
			opts.Timeout = 20 * time.Millisecond
			err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
			var te *locking.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != locking.StateAlive {
				t.Fatalf("age %v: err = %v, want a timeout naming a live holder", age, err)
			}
			if te.Holder.Age < age-time.Second {
				t.Errorf("age %v: holder age %v", age, te.Holder.Age)
			}
			if got := e.readRaw(t, lockP); !bytes.Equal(got, lock) {
				t.Fatalf("age %v: lock changed", age)
			}
		}
	})
}

// R08 (in part): the age reads from the later of acquiredAt and the file
// time, never below zero, and a skewed time never stops the break of a dead
// holder.
func TestSkewedTimesNeverDecide(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		live := locktest.LivePID(t)
		future := time.Now().Add(48 * time.Hour)
		past := time.Now().Add(-20 * 365 * 24 * time.Hour)
		for _, c := range []struct {
			name        string
			at, file    time.Time
			wantAgeOver time.Duration
			wantAgeMax  time.Duration
		}{
			{"both future", future, future, 0, time.Second},
			{"acquiredAt future", future, past, 0, time.Second},
			{"file future", past, future, 0, time.Second},
			{"both past", past, past, 19 * 365 * 24 * time.Hour, 21 * 365 * 24 * time.Hour},
			{"acquiredAt later", time.Now().Add(-time.Hour), past, 59 * time.Minute, 61 * time.Minute},
		} {
			lock := lockJSON(live, hostname(t), true, "00112233445566778899aabb", c.at)
			e.writeRaw(t, lockP, lock)
			_ = os.Chtimes(e.path(lockP), c.file, c.file)
			opts := fast(nil)
			opts.Timeout = locking.NoWait
			err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts)
			var te *locking.TimeoutError
			if !errors.As(err, &te) {
				t.Fatalf("%s: err = %v, want a timeout (live holder)", c.name, err)
			}
			if te.Holder.Age < c.wantAgeOver || te.Holder.Age > c.wantAgeMax {
				t.Errorf("%s: age %v, want in [%v, %v]", c.name, te.Holder.Age, c.wantAgeOver, c.wantAgeMax)
			}
			if !bytes.Equal(e.readRaw(t, lockP), lock) {
				t.Fatalf("%s: a live lock was changed", c.name)
			}
		}
		// A dead holder with skewed times is broken all the same.
		dead := locktest.DeadPID(t)
		e.writeRaw(t, lockP, lockJSON(dead, hostname(t), true, "00112233445566778899aabb", future))
		_ = os.Chtimes(e.path(lockP), future, future)
		opts := fast(nil)
		opts.Timeout = locking.NoWait
		if err := locking.Update(context.Background(), e.fsys, target, appendRecord("a"), opts); err != nil {
			t.Fatalf("a dead holder with future times was not broken: %v", err)
		}
		e.wantRecords(t, "a")
	})
}

// Bad input changes nothing: a name that is not a valid slash path (NUL, a
// leading slash, dot-dot) is refused before any file is touched.
func TestInvalidNameRefused(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		for _, name := range []string{"", ".", "/abs", "../x", "d/../../x", "d/a\x00b", "d//x", "d/x/"} {
			err := locking.Update(context.Background(), e.fsys, name, appendRecord("a"), fast(nil))
			if err == nil {
				t.Fatalf("Update(%q) succeeded", name)
			}
			if _, err := locking.Acquire(context.Background(), e.fsys, name, fast(nil)); err == nil {
				t.Fatalf("Acquire(%q) succeeded", name)
			}
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q after refused names", got)
		}
	})
}

// A cancelled context ends a wait at once with the context's error.
func TestAcquireHonoursContext(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		pid := locktest.LivePID(t)
		e.writeRaw(t, lockP, lockJSON(pid, hostname(t), true, "00112233445566778899aabb", time.Now()))
		ctx, cancel := context.WithCancel(context.Background())
		opts := fast(nil)
		opts.Timeout = time.Minute
		opts.PollInterval = 5 * time.Millisecond
		done := make(chan error)
		go func() { done <- locking.Update(ctx, e.fsys, target, appendRecord("a"), opts) }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}
