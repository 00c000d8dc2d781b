package conformance

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// R01: a free lock is taken whole and released, nothing left beside the
// spawn-log; the steps are the class's (with hard links the lock appears by
// link(), without by an exclusive create).
func freeLockTakenWhole(t *testing.T, s *site) {
	var steps []lockspec.Step
	o := fast(s.me())
	lockspec.SetOnStep(&o, func(st lockspec.Step) { steps = append(steps, st) })
	h, err := locking.Acquire(context.Background(), s.fs, logName, o)
	if err != nil {
		t.Fatal(err)
	}
	holder, err := locking.Inspect(s.fs, logName, o)
	if err != nil {
		t.Fatal(err)
	}
	if holder.PID != s.myPID() || holder.Hostname != s.hostname() || holder.Token != h.Token() || len(h.Token()) != 24 || holder.State != locking.StateAlive {
		t.Fatalf("lock judged %+v; want this process's, token %s", holder, h.Token())
	}
	if _, err := time.Parse(time.RFC3339Nano, holder.AcquiredAt); err != nil {
		t.Errorf("acquiredAt %q is not ISO 8601: %v", holder.AcquiredAt, err)
	}
	if got := s.ls(t); len(got) != 1 || got[0] != logBase+".lock" {
		t.Fatalf("while held the folder holds %q; want the lock only", got)
	}
	if err := h.Commit(logDoc("a")); err != nil {
		t.Fatal(err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	s.onlyLog(t)
	s.wantTitles(t, "a")
	want := []lockspec.Step{lockspec.StepAcquirePending, lockspec.StepAcquirePublished}
	switch s.class {
	case NoLinks:
		want = []lockspec.Step{lockspec.StepAcquirePending, lockspec.StepAcquireOpened, lockspec.StepAcquirePublished}
	case DirPublish:
		want = []lockspec.Step{lockspec.StepAcquirePending, lockspec.StepAcquireStaged, lockspec.StepAcquirePublished}
	}
	want = append(want, lockspec.StepCommitTempWritten, lockspec.StepCommitFenced, lockspec.StepCommitRenamed,
		lockspec.StepReleaseRenamed, lockspec.StepReleaseRemoved)
	if !equalSteps(steps, want) {
		t.Fatalf("steps %v; want %v", steps, want)
	}
	if h.HardLinks() != (s.class == Links) {
		t.Fatalf("HardLinks() = %v on class %s", h.HardLinks(), s.class)
	}
}

// R02: a lock held by a live process times out naming the holder, and is
// left byte for byte.
func liveHolderTimesOut(t *testing.T, s *site) {
	pid := s.livePID(t)
	lock := lockJSON(pid, s.hostname(), true, "00112233445566778899aabb", time.Now())
	s.writeRaw(t, lockName, lock)
	o := fast(s.me())
	o.Timeout = 150 * time.Millisecond
	start := time.Now()
	err := s.write("a", o)
	waited := time.Since(start)
	var te *locking.TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, locking.ErrTimeout) {
		t.Fatalf("err = %v; want a *TimeoutError", err)
	}
	if te.Holder.PID != pid || te.Holder.State != locking.StateAlive || te.Lock != lockName {
		t.Fatalf("holder %+v on %s; want pid %d alive on %s", te.Holder, te.Lock, pid, lockName)
	}
	contains(t, err.Error(), strconv.Itoa(pid), "alive", lockName)
	neutral(t, err.Error())
	if waited < 150*time.Millisecond || waited > 5*time.Second {
		t.Errorf("waited %v; want about the 150ms timeout", waited)
	}
	if !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatal("the live holder's lock changed")
	}
	if got := s.ls(t); len(got) != 1 {
		t.Fatalf("the folder holds %q; want the lock only", got)
	}
}

// R03: a live holder's pid reads as alive and its lock is never broken,
// at any age: past the stale window, at 11 minutes, at one hour and at two
// years.
func liveAtAnyAge(t *testing.T, s *site) {
	pid := s.livePID(t)
	for _, age := range []time.Duration{61 * time.Second, 11 * time.Minute, time.Hour, 2 * 365 * 24 * time.Hour} {
		lock := lockJSON(pid, s.hostname(), true, "00112233445566778899aabb", time.Now().Add(-age))
		s.writeRaw(t, lockName, lock)
		s.chtimes(t, lockName, time.Now().Add(-age))
		o := fast(s.me())
		o.Timeout = 20 * time.Millisecond
		err := s.write("a", o)
		var te *locking.TimeoutError
		if !errors.As(err, &te) || te.Holder.State != locking.StateAlive {
			t.Fatalf("age %v: err = %v; want a timeout naming a live holder", age, err)
		}
		if te.Holder.Age < age-time.Second {
			t.Errorf("age %v: the holder's age reads %v", age, te.Holder.Age)
		}
		if !bytes.Equal(s.readRaw(t, lockName), lock) {
			t.Fatalf("age %v: the lock changed", age)
		}
	}
	if got := s.ls(t); len(got) != 1 {
		t.Fatalf("the folder holds %q; want the lock only", got)
	}
}

// R04: a lock left by a dead process of this host is broken at once (no
// wait), by the break's steps, with or without a hostname.
func deadHolderBroken(withHost bool) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		pid := s.deadPID(t)
		s.writeRaw(t, lockName, lockJSON(pid, s.hostname(), withHost, "00112233445566778899aabb", time.Now()))
		held, err := locking.Inspect(s.fs, logName, fast(s.me()))
		if err != nil || held.State != locking.StateDead {
			t.Fatalf("Inspect = %+v, %v; want a dead holder", held, err)
		}
		o := noWait(s.me())
		var steps []lockspec.Step
		lockspec.SetOnStep(&o, func(st lockspec.Step) { steps = append(steps, st) })
		s.mustWrite(t, "a", o)
		s.wantTitles(t, "a")
		s.onlyLog(t)
		for _, st := range []lockspec.Step{lockspec.StepBreakJudged, lockspec.StepBreakClaimed, lockspec.StepBreakConfirmed, lockspec.StepBreakRenamed, lockspec.StepBreakRemoved} {
			if !hasStep(steps, st) {
				t.Errorf("the break did not pass %s: %v", st, steps)
			}
		}
	}
}

// unreadableLocks are empty and unreadable locks, by name.
func unreadableLocks(dead int) map[string][]byte {
	d := strconv.Itoa(dead)
	return map[string][]byte{
		"empty":          {},
		"garbage":        []byte("not json"),
		"array":          []byte(`[1,2]`),
		"null":           []byte(`null`),
		"pid-string":     []byte(`{"pid":"` + d + `"}`),
		"pid-fraction":   []byte(`{"pid":1.5}`),
		"pid-zero":       []byte(`{"pid":0}`),
		"pid-negative":   []byte(`{"pid":-1}`),
		"pid-huge":       []byte(`{"pid":99999999999}`),
		"no-pid":         []byte(`{"hostname":"x"}`),
		"truncated":      []byte(`{"pid":` + d),
		"trailing":       []byte(`{"pid":` + d + `} {}`),
		"trailing-brace": []byte(`{"pid":` + d + `}}`),
		"pid-2^63":       []byte(`{"pid":9223372036854775808}`),
		"nested-100k":    []byte(strings.Repeat("[", 100000)),
		"hostname-64KiB": []byte(`{"pid":` + d + `,"hostname":"` + strings.Repeat("h", 64<<10) + `"}`),
		"hostname-int":   []byte(`{"pid":` + d + `,"hostname":7}`),
		"binary":         {0x00, 0xff, 0x1b, '[', '2', 'J', 0x80, 0x07},
		"ten-megabytes":  append([]byte(`{"pid":`+d+`,"pad":"`), bytes.Repeat([]byte("x"), 10<<20)...),
		"long-json":      []byte(`{"pid":` + d + `,"pad":"` + strings.Repeat("y", 70<<10) + `"}`),
	}
}

// R05: an empty or unreadable lock is never broken, at any age (a year
// old here), and the timeout names it (pa's line names --force), in a
// bounded line with no raw control byte.
func unreadableNeverBroken(t *testing.T, s *site) {
	for name, content := range unreadableLocks(s.deadPID(t)) {
		t.Run(name, func(t *testing.T) {
			s.writeRaw(t, lockName, content)
			s.chtimes(t, lockName, time.Now().Add(-365*24*time.Hour))
			o := fast(s.me())
			o.Timeout = 30 * time.Millisecond
			err := s.write("a", o)
			var te *locking.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != locking.StateUnreadable {
				t.Fatalf("err = %v; want a *TimeoutError naming an unreadable lock", err)
			}
			if te.Holder.Age < 364*24*time.Hour {
				t.Errorf("age %v; want the file time's (a year)", te.Holder.Age)
			}
			contains(t, err.Error(), lockName)
			neutral(t, err.Error())
			if !strings.Contains(err.Error(), "an empty lock") && !strings.Contains(err.Error(), "an unreadable lock") {
				t.Errorf("%q does not name an empty or unreadable lock", err)
			}
			if len(err.Error()) > 1000 || strings.ContainsAny(err.Error(), "\x00\x1b\x07") {
				t.Errorf("message %q: want it bounded, with no raw control byte", err)
			}
			if !bytes.Equal(s.readRaw(t, lockName), content) {
				t.Fatalf("the lock changed")
			}
			if s.exists(logName) {
				t.Fatal("the spawn-log was written under an unreadable lock")
			}
		})
	}
}

// R05, R20: an empty or unreadable lock is refused by unlock without
// --force (the lock byte for byte), and removed with --force.
func unreadableUnlock(t *testing.T, s *site) {
	for name, content := range map[string][]byte{"empty": nil, "unreadable": []byte("{\"pid\":\x1b[2J")} {
		t.Run(name, func(t *testing.T) {
			s.writeRaw(t, lockName, content)
			unlockRefusedThenForced(t, s, content)
		})
	}
}

// unlockRefusedThenForced checks that the lock (content) is refused
// without --force and removed with it.
func unlockRefusedThenForced(t *testing.T, s *site, content []byte) {
	t.Helper()
	held, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil {
		t.Fatal(err)
	}
	err = locking.Unlock(context.Background(), s.fs, logName, held, false, fast(s.me()))
	var re *locking.RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("unlock: %v; want a *RefusedError", err)
	}
	contains(t, err.Error(), lockName, "not removed")
	neutral(t, err.Error())
	if !bytes.Equal(s.readRaw(t, lockName), content) {
		t.Fatal("a refused unlock changed the lock")
	}
	if err := locking.Unlock(context.Background(), s.fs, logName, held, true, fast(s.me())); err != nil {
		t.Fatalf("unlock --force: %v", err)
	}
	s.empty(t)
}

// R06: a holder on another host is never broken, at any age, and its pid
// is never checked here.
func otherHostNeverBroken(t *testing.T, s *site) {
	here := locktest.NewMachine("host-a")
	const otherPID = 4242 // never spawned on host-a: asked, it would read as dead
	for _, age := range []time.Duration{0, 2 * time.Minute, 11 * time.Minute, 24 * time.Hour} {
		lock := lockJSON(otherPID, "host-b", true, "00112233445566778899aabb", time.Now().Add(-age))
		s.writeRaw(t, lockName, lock)
		s.chtimes(t, lockName, time.Now().Add(-age))
		o := fast(here.Spawn())
		o.Timeout = 30 * time.Millisecond
		err := s.write("a", o)
		var te *locking.TimeoutError
		if !errors.As(err, &te) || te.Holder.State != locking.StateOtherHost {
			t.Fatalf("age %v: err = %v; want a timeout naming a holder on another host", age, err)
		}
		contains(t, err.Error(), "host-b", "on another host")
		neutral(t, err.Error())
		if n := here.Asked(otherPID); n != 0 {
			t.Fatalf("age %v: the other host's pid was checked %d times", age, n)
		}
		if !bytes.Equal(s.readRaw(t, lockName), lock) {
			t.Fatalf("age %v: the lock changed", age)
		}
	}
}
