package conformance

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// The holders of the lock unlockLeavesLeftovers judges.
const (
	holderDead = "dead" // a provably dead holder of this host
	holderLive = "live" // a live holder of this host
)

// R19, R20, R21: Unlock sweeps nothing but the lock it judged (spec:
// Unlock). Beside the lock lie dead owners' leftovers in the current and
// both earlier shapes (pending, a claim of another key, broken and temp
// names): a sweep would remove every one of them. For each holder (a dead
// one, a live one), Unlock with force or without it removes the lock, or
// refuses it (a live holder without force), and every leftover stays,
// byte for byte.
func unlockLeavesLeftovers(force bool, holders ...string) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		for _, who := range holders {
			t.Run(who, func(t *testing.T) {
				s.reset(t)
				dead := s.deadPID(t)
				left := map[string][]byte{}
				for _, shape := range []string{shapeCurrent, shapeFirst, shapeSecond} {
					maps.Copy(left, leftovers(shape, dead, s.hostname()))
				}
				for name, data := range left {
					s.writeRaw(t, agentDir+"/"+name, data)
				}
				pid := dead
				if who == holderLive {
					pid = s.livePID(t)
				}
				lock := lockJSON(pid, s.hostname(), true, "0ddba11c0ddba11c0ddba11c", time.Now().Add(-time.Hour))
				s.writeRaw(t, lockName, lock)

				o := fast(s.me())
				held, err := locking.Inspect(s.fs, logName, o)
				if err != nil || held.PID != pid {
					t.Fatalf("Inspect = %+v, %v; want the lock of pid %d", held, err, pid)
				}
				judged := 0
				lockspec.SetOnStep(&o, func(st lockspec.Step) {
					if st == lockspec.StepSweepJudged {
						judged++
					}
				})
				err = locking.Unlock(context.Background(), s.fs, logName, held, force, o)
				refused := who == holderLive && !force
				var re *locking.RefusedError
				switch {
				case refused && !errors.As(err, &re):
					t.Fatalf("unlock of a live holder without --force: %v; want a *RefusedError", err)
				case !refused && err != nil:
					t.Fatalf("unlock (force %v) of a %s holder: %v", force, who, err)
				}
				if judged != 0 {
					t.Errorf("unlock reached %s %d times; it sweeps nothing", lockspec.StepSweepJudged, judged)
				}

				want := slices.Collect(maps.Keys(left))
				if refused {
					want = append(want, logBase+".lock")
					if !bytes.Equal(s.readRaw(t, lockName), lock) {
						t.Error("a refused unlock changed the lock")
					}
				}
				slices.Sort(want)
				if got := s.ls(t); !slices.Equal(got, want) {
					t.Fatalf("after unlock (force %v) of a %s holder the folder holds\n%q\nwant the dead owners' leftovers untouched\n%q", force, who, got, want)
				}
				for name, data := range left {
					if !bytes.Equal(s.readRaw(t, agentDir+"/"+name), data) {
						t.Errorf("%s changed", name)
					}
				}
			})
		}
	}
}
