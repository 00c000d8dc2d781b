package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// R03: a real holder stalled after its read, past the stale window (the
// clock of the others two minutes on), keeps its lock: pa board check
// reports it and breaks nothing, a writer that does not wait fails naming
// it, a writer that waits goes on waiting; once the holder goes on, both
// records survive, the waiting one after.
func stalledHolderKeepsLock(t *testing.T, s *site) {
	s.mustWrite(t, "pre", fast(s.me()))
	h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Pause: []stepAt{{Step: lockspec.StepHoldRead}}})
	h.paused(t, lockspec.StepHoldRead)
	lock := s.readRaw(t, lockName)
	later := func() time.Time { return time.Now().Add(2 * time.Minute) }

	probs := s.lockHeld(t, dispatch.CheckOptions{Lock: locking.Options{Now: later}})
	if len(probs) != 1 || probs[0].Holder.PID != h.pid() || probs[0].Holder.State != "alive" {
		t.Fatalf("board check past the stale window: %+v; want the live holder (pid %d) reported", probs, h.pid())
	}
	o := noWait(s.me())
	o.Now = later
	err := s.write("at-once", o)
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Holder.PID != h.pid() || te.Holder.State != locking.StateAlive || te.Holder.Age < dispatch.DefaultStaleWindow {
		t.Fatalf("a writer that does not wait: %v; want a timeout naming the live holder (pid %d) past the stale window", err, h.pid())
	}

	ffs := faultfs.New(s.fs)
	var once sync.Once
	polled := make(chan struct{})
	reads := 0
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpOpenFile && (ev.Name == lockName || strings.HasPrefix(ev.Name, lockName+"/")) { // a directory lock's marker
			if reads++; reads == 3 {
				once.Do(func() { close(polled) })
			}
		}
		return nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := spawnlog.Append(context.Background(), ffs, agent, "contender", nil, patient(s.me()))
		done <- err
	}()
	select { // the contender finds the lock held three times: it waits
	case <-polled:
	case err := <-done:
		t.Fatalf("the contender ended (%v) before it waited", err)
	case <-time.After(watchdog):
		t.Fatalf("the contender did not try the lock in %s", watchdog)
	}
	if !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatal("the stalled holder's lock changed while others acted")
	}
	h.resume(t)
	h.succeeded(t)
	if err := <-done; err != nil {
		t.Fatalf("the contender: %v", err)
	}
	s.wantTitles(t, "pre", "holder", "contender")
	s.before(t, "holder", "contender")
	s.onlyLog(t)
}

// R03 through the binary: a lock held by a live process makes `pa
// dispatch open --wait 1s` exit 2 after about a second, with one line
// naming the holder's pid and pa dispatch unlock --force, and nothing
// changes. With a 240-character agent the lock path is capped and the
// command keeps the whole agent.
func openTimesOutNamingHolder(t *testing.T, s *site) {
	live := s.livePID(t)
	for _, ag := range []string{agent, strings.Repeat("q", 240)} {
		if r := s.pa(t, "dispatch", "open", "--agent", ag); r.code != 0 {
			t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
		}
		s.writeRaw(t, "agents/"+ag+"/spawn-log.json.lock", lockJSON(live, s.hostname(), true, strings.Repeat("5a", 12), time.Now()))
		before := estatetest.Snapshot(t, s.root)

		r := s.pa(t, "dispatch", "open", "--agent", ag, "--wait", "1s")
		if r.code != 2 {
			t.Fatalf("exit %d; want 2 (stderr %q)", r.code, r.stderr)
		}
		if r.took < time.Second || r.took > 5*time.Second {
			t.Errorf("took %s; want about a second", r.took)
		}
		if r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("stdout %q, stderr %q; want one line on stderr only", r.stdout, r.stderr)
		}
		capped := ag
		if len(ag) > 32 {
			capped = ag[:29] + "..."
		}
		lead := fmt.Sprintf("pa: agents/%s/spawn-log.json.lock held by pid %d on host ", capped, live)
		if !strings.HasPrefix(r.stderr, lead) {
			t.Errorf("line %q; want it to lead with %q", r.stderr, lead)
		}
		contains(t, r.stderr, "(alive, age ", "): gave up after 1s; ",
			paAt(s.root)+" dispatch unlock --force --agent "+ag+",",
			"only once the holder's process is gone or stuck, never while it still runs")
		after := estatetest.Snapshot(t, s.root)
		// But for the timeouts' rows (the lock's incident log).
		if !maps.Equal(estatetest.WithoutIncidentLogs(before), estatetest.WithoutIncidentLogs(after)) {
			t.Errorf("the estate changed:\nbefore %q\nafter  %q", before, after)
		}
	}
}
