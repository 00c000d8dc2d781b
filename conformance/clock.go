package conformance

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/locking"
)

// skews are pairs of acquiredAt and file time, and the age each must read
// as: from the later of the two, never below zero.
func skews() []struct {
	name           string
	at, file       time.Time
	ageMin, ageMax time.Duration
} {
	now := time.Now()
	future := now.Add(48 * time.Hour)
	past := now.Add(-20 * 365 * 24 * time.Hour)
	return []struct {
		name           string
		at, file       time.Time
		ageMin, ageMax time.Duration
	}{
		{"both-future", future, future, 0, time.Second},
		{"acquiredAt-future", future, past, 0, time.Second},
		{"file-future", past, future, 0, time.Second},
		{"both-far-past", past, past, 19 * 365 * 24 * time.Hour, 21 * 365 * 24 * time.Hour},
		{"acquiredAt-later", now.Add(-time.Hour), past, 59 * time.Minute, 61 * time.Minute},
		{"file-later", past, now.Add(-time.Hour), 59 * time.Minute, 61 * time.Minute},
	}
}

// R08: a live lock whose acquiredAt and file time are skewed into the
// future or far into the past is never broken, and its age (in the
// holder, and printed in the message) reads from the later of the two.
func skewedLiveNeverBroken(t *testing.T, s *site) {
	live := s.livePID(t)
	for _, c := range skews() {
		lock := lockJSON(live, s.hostname(), true, "00112233445566778899aabb", c.at)
		s.writeRaw(t, lockName, lock)
		s.chtimes(t, lockName, c.file)
		err := s.write("a", noWait(s.me()))
		var te *locking.TimeoutError
		if !errors.As(err, &te) {
			t.Fatalf("%s: err = %v; want a timeout (a live holder)", c.name, err)
		}
		if te.Holder.Age < c.ageMin || te.Holder.Age > c.ageMax {
			t.Errorf("%s: age %v; want it in [%v, %v]", c.name, te.Holder.Age, c.ageMin, c.ageMax)
		}
		contains(t, err.Error(), "age "+display.Age(te.Holder.Age)+",")
		if !bytes.Equal(s.readRaw(t, lockName), lock) {
			t.Fatalf("%s: a live lock was changed", c.name)
		}
	}
	if s.exists(logName) {
		t.Fatal("a write went through under a live lock")
	}
}

// R08: a dead holder's lock with skewed times is broken at once all the
// same: the times never stop the one automatic break.
func skewedDeadBroken(t *testing.T, s *site) {
	var want []string
	for _, c := range skews() {
		s.writeRaw(t, lockName, lockJSON(s.deadPID(t), s.hostname(), true, "00112233445566778899aabb", c.at))
		s.chtimes(t, lockName, c.file)
		if err := s.write(c.name, noWait(s.me())); err != nil {
			t.Fatalf("%s: a dead holder with skewed times was not broken at once: %v", c.name, err)
		}
		want = append(want, c.name)
	}
	s.wantTitles(t, want...)
	s.onlyLog(t)
}

// R08 in pa board check: lock times skewed into the future read as just
// taken (not reported), a pair far in the past reads as old (reported at
// once); neither changes the lock.
func skewedBoardCheck(t *testing.T, s *site) {
	live := s.livePID(t)
	for _, c := range skews() {
		lock := lockJSON(live, s.hostname(), true, "00112233445566778899aabb", c.at)
		s.writeRaw(t, lockName, lock)
		s.chtimes(t, lockName, c.file)
		probs := s.lockHeld(t, dispatch.CheckOptions{})
		reported := len(probs) == 1
		if want := c.ageMin > dispatch.DefaultStaleWindow; reported != want || len(probs) > 1 {
			t.Errorf("%s: problems %+v; want a lock-held problem: %v", c.name, probs, want)
		}
		if reported && (time.Duration(probs[0].Holder.AgeMs)*time.Millisecond < c.ageMin) {
			t.Errorf("%s: age %dms; want at least %v", c.name, probs[0].Holder.AgeMs, c.ageMin)
		}
		if !bytes.Equal(s.readRaw(t, lockName), lock) {
			t.Fatalf("%s: board check changed the lock", c.name)
		}
	}
}
