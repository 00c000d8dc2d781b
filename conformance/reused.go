package conformance

import (
	"bytes"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// R07: a holder whose pid is reused reads as alive and its lock is never
// broken, at any age. The pid is a process started after the lock was
// taken: its acquiredAt and its file time are set before the process
// existed (from a second to two years before), so the lock cannot be that
// process's own, and yet its pid answers. A writer never starts a break
// (no break:judged), times out naming the holder alive, and the lock is
// left byte for byte.
func reusedPIDReadsAlive(t *testing.T, s *site) {
	for _, age := range []time.Duration{time.Second, 61 * time.Second, 11 * time.Minute, time.Hour, 2 * 365 * 24 * time.Hour} {
		born := time.Now() // the process starts after this
		pid := s.newProcess(t)
		at := born.Add(-age)
		lock := lockJSON(pid, s.hostname(), true, "5eed5eed5eed5eed5eed5eed", at)
		s.writeRaw(t, lockName, lock)
		s.chtimes(t, lockName, at)
		if mt := s.stat(t, lockName).ModTime(); !mt.Before(born) {
			t.Fatalf("age %v: the lock's file time %v is not before the process started (%v)", age, mt, born)
		}

		o := fast(s.me())
		o.Timeout = 50 * time.Millisecond
		broke := false
		lockspec.SetOnStep(&o, func(st lockspec.Step) { broke = broke || st == lockspec.StepBreakJudged })
		err := s.write("a", o)
		var te *locking.TimeoutError
		if !errors.As(err, &te) || te.Holder.PID != pid || te.Holder.State != locking.StateAlive {
			t.Fatalf("age %v: err = %v; want a timeout naming pid %d alive", age, err, pid)
		}
		contains(t, err.Error(), strconv.Itoa(pid), "alive")
		neutral(t, err.Error())
		if te.Holder.Age < age-time.Second {
			t.Errorf("age %v: the holder's age reads %v", age, te.Holder.Age)
		}
		if broke {
			t.Errorf("age %v: a writer started a break of a lock whose pid answers", age)
		}
		if !bytes.Equal(s.readRaw(t, lockName), lock) {
			t.Fatalf("age %v: the lock changed", age)
		}
		if got := s.ls(t); len(got) != 1 || got[0] != logBase+".lock" {
			t.Fatalf("age %v: the folder holds %q; want the lock only", age, got)
		}
	}
}
