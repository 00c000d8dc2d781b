package conformance

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// mismatch proves a `crash` › mismatch row (R37, R38, R46, R47) with real
// processes: a breaker confirmed on a dead lock (or a holder that has just
// committed, for a release) pauses; the operator runs `pa dispatch unlock
// --force`; a real holder takes the fresh lock and waits after its read;
// the breaker (or releaser) goes on, moves the holder's lock and is killed
// at step, before its put-back; a contender commits at once (after unlock
// --force clears the empty lock a put-back-opened kill leaves); the holder
// goes on, finds the loss at its fence, retries under a fresh lock and
// commits after the contender; every record survives once.
func mismatch(release bool, step lockspec.Step) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		s.mustWrite(t, "pre", fast(s.me()))
		pause, title := lockspec.StepBreakConfirmed, "breaker"
		if release {
			pause, title = lockspec.StepCommitRenamed, "releaser"
		} else {
			s.writeRaw(t, lockName, lockJSON(s.deadPID(t), s.hostname(), true, "deaddeaddeaddeaddeaddead", time.Now()))
		}
		mover := s.start(t, title, childSpec{Role: roleWrite, Title: title, Timeout: brief, Pause: []stepAt{{Step: pause}}, Kill: []lockspec.Step{step}})
		mover.paused(t, pause)
		r := s.pa(t, "dispatch", "unlock", "--force", "--agent", agent)
		if r.code != 0 || !strings.HasSuffix(r.stdout, ": removed\n") {
			t.Fatalf("pa dispatch unlock --force: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		holder := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Report: true, Pause: []stepAt{{Step: lockspec.StepHoldRead}}})
		holder.paused(t, lockspec.StepHoldRead)
		held, err := locking.Inspect(s.fs, logName, fast(s.me()))
		if err != nil || held.PID != holder.pid() {
			t.Fatalf("the lock: %+v, %v; want the holder's (pid %d)", held, err, holder.pid())
		}
		mover.resume(t)
		mover.killedAt(t, step)
		if moved := s.named(t, "broken"); len(moved) != 1 || !strings.Contains(moved[0], fmt.Sprintf("-%d-", mover.pid())) {
			t.Fatalf("the folder holds %q; want the holder's lock moved by the %s", s.ls(t), title)
		}
		if step == lockspec.StepBreakPutBackOpened || step == lockspec.StepReleasePutBackOpened {
			emptyLockBlocks(t, s)
		} else if s.exists(lockName) {
			t.Fatalf("the lock name is taken after a kill at %s: %q", step, s.ls(t))
		}
		s.mustWrite(t, "contender", noWait(s.me()))
		holder.resume(t)
		holder.succeeded(t)
		fencedOutOnce(t, holder)
		want := []string{"pre", "contender", "holder"}
		if release {
			want = append(want, "releaser")
		}
		s.wantTitles(t, want...)
		s.before(t, "contender", "holder")
		s.onlyLog(t)
	}
}
