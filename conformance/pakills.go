package conformance

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// R43 through the real binary: `pa dispatch open` killed after its commit
// rename (the pafault build, PA_FAULT_STEP): the record is in the
// spawn-log, the next open clears the dead holder's lock at once (--wait
// 0) and exits 0, nothing is lost, and board check names the killed
// dispatch, which never reached its board, before the next open (the dead
// holder's lock still there) and after.
func paOpenKilledAfterCommit(t *testing.T, s *site) {
	r := s.paKilled(t, "commit:renamed", "dispatch", "open", "--agent", agent)
	if r.code == 0 || r.stdout != "" {
		t.Fatalf("the killed open: exit %d, stdout %q; want it killed before printing", r.code, r.stdout)
	}
	// Its lock is still there, its holder dead: board check does not wait
	// for it and names the dispatch that never reached its board.
	notOnBoard := "dispatch 1 is in agents/demo/spawn-log.json but not on the board agents/demo/board/board.json; put it there with " +
		paAt(s.root) + " board repair --agent demo\n"
	if r := s.pa(t, "board", "check", "--agent", agent); r.code != 2 || r.stdout != notOnBoard {
		t.Errorf("board check with the killed open's lock: exit %d, stdout %q, stderr %q; want dispatch 1 named as not on the board", r.code, r.stdout, r.stderr)
	}
	if r := s.pa(t, "dispatch", "open", "--agent", agent, "--wait", "0"); r.code != 0 || r.stdout != "2\n" {
		t.Fatalf("the next open: exit %d, stdout %q, stderr %q; want exit 0 at once and id 2", r.code, r.stdout, r.stderr)
	}
	r = s.pa(t, "dispatch", "list", "--agent", agent, "--json")
	var recs []struct{ ID int }
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) != 2 || recs[0].ID != 1 || recs[1].ID != 2 {
		t.Errorf("list: %q (%v); want records 1 and 2", r.stdout, err)
	}
	r = s.pa(t, "board", "check", "--agent", agent)
	r.stdout = incidentNote.ReplaceAllString(r.stdout, "") // the next open's break of the killed holder
	if r.code != 2 || r.stdout != notOnBoard {
		t.Errorf("board check: exit %d, stdout %q; want dispatch 1 named as not on the board", r.code, r.stdout)
	}
}

// R29 through the real binary: without hard links, by the spec's
// exclusive create, the empty lock left by an open killed after its
// exclusive open blocks the next open (exit 2
// naming the empty lock and --force) until `pa dispatch unlock --force`
// clears it; with hard links the step does not exist and the open exits 0.
func paOpenKilledAfterOpen(t *testing.T, s *site) {
	if s.class == DirPublish {
		paOpenKilledAfterStaging(t, s)
		return
	}
	r := s.paKilled(t, "acquire:opened", "dispatch", "open", "--agent", agent)
	if s.class == Links {
		if r.code != 0 || r.stdout != "1\n" {
			t.Fatalf("with hard links: exit %d, stdout %q, stderr %q; want exit 0 (no such step)", r.code, r.stdout, r.stderr)
		}
		s.checkEstate(t, []int{1})
		return
	}
	if r.code == 0 {
		t.Fatal("without hard links: exit 0; want the process killed at acquire:opened")
	}
	r = s.pa(t, "dispatch", "open", "--agent", agent, "--wait", "0")
	if r.code != 2 || !strings.HasPrefix(r.stderr, "pa: agents/demo/spawn-log.json.lock is an empty lock (0 bytes, age ") ||
		!strings.Contains(r.stderr, paAt(s.root)+" dispatch unlock --force --agent demo") {
		t.Fatalf("the next open: exit %d, stderr %q; want exit 2 naming the empty lock and --force", r.code, r.stderr)
	}
	if r := s.pa(t, "dispatch", "unlock", "--force", "--agent", agent); r.code != 0 {
		t.Fatalf("unlock --force: exit %d, %q", r.code, r.stderr)
	}
	if r := s.pa(t, "dispatch", "open", "--agent", agent, "--wait", "0"); r.code != 0 || r.stdout != "1\n" {
		t.Errorf("the open after unlock --force: exit %d, stdout %q, stderr %q; want id 1", r.code, r.stdout, r.stderr)
	}
	s.checkEstate(t, []int{1})
}

// paOpenKilledAfterStaging is R29 through the real binary on the class of
// the directory publish, which has no acquire:opened: an open killed after
// its record is staged (acquire:staged) leaves no lock, only its staging
// directory; the next open exits 0 at once, with no unlock --force, and
// sweeps it.
func paOpenKilledAfterStaging(t *testing.T, s *site) {
	r := s.paKilled(t, "acquire:staged", "dispatch", "open", "--agent", agent)
	if r.code == 0 {
		t.Fatal("exit 0; want the process killed at acquire:staged")
	}
	if s.exists(lockName) || len(s.named(t, "staged")) != 1 {
		t.Fatalf("the folder holds %q; want the killed open's staging directory and no lock", s.ls(t))
	}
	if r := s.pa(t, "dispatch", "open", "--agent", agent, "--wait", "0"); r.code != 0 || r.stdout != "1\n" {
		t.Fatalf("the next open, at once: exit %d, stdout %q, stderr %q; want id 1", r.code, r.stdout, r.stderr)
	}
	s.checkEstate(t, []int{1})
}

// paKilledAtEveryStep is the shipped binary (its pafault build) killed at
// every step of the directory publish, of a break and of a release, each
// on a fresh estate (R29's cell of the class of the directory publish):
// after each kill the next `pa dispatch open` exits 0 at once, with no
// unlock --force, and the estate holds every committed record, on the
// board, and nothing else. The steps of a break meet a dead holder's
// directory lock (an open killed while it held the lock); sweep:judged
// meets a dead writer's staging directory (an open killed at
// acquire:staged).
func paKilledAtEveryStep(t *testing.T, s *site) {
	for _, c := range []struct {
		step      lockspec.Step
		setup     lockspec.Step // a pa killed here first ("" for none)
		committed bool          // the killed open's record is in, and on the board
	}{
		{lockspec.StepAcquirePending, "", false},
		{lockspec.StepAcquireStaged, "", false},
		{lockspec.StepAcquirePublished, "", false},
		{lockspec.StepSweepJudged, lockspec.StepAcquireStaged, false},
		{lockspec.StepBreakJudged, lockspec.StepHoldRead, false},
		{lockspec.StepBreakClaimed, lockspec.StepHoldRead, false},
		{lockspec.StepBreakConfirmed, lockspec.StepHoldRead, false},
		{lockspec.StepBreakRenamed, lockspec.StepHoldRead, false},
		{lockspec.StepBreakRemoved, lockspec.StepHoldRead, false},
		{lockspec.StepHoldRead, "", false},
		{lockspec.StepReleaseRenamed, "", true},
		{lockspec.StepReleaseRemoved, "", true},
	} {
		s.reset(t)
		if c.setup != "" {
			if r := s.paKilled(t, string(c.setup), "dispatch", "open", "--agent", agent); r.code == 0 {
				t.Fatalf("%s: the open to kill at %s exited 0", c.step, c.setup)
			}
		}
		r := s.paKilled(t, string(c.step), "dispatch", "open", "--agent", agent)
		if r.code == 0 {
			t.Fatalf("%s: exit 0; want the open killed there (stderr %q)", c.step, r.stderr)
		}
		want := []int{1}
		if c.committed {
			want = []int{1, 2}
		}
		next := strconv.Itoa(want[len(want)-1]) + "\n"
		if r := s.pa(t, "dispatch", "open", "--agent", agent, "--wait", "0"); r.code != 0 || r.stdout != next {
			t.Fatalf("killed at %s: the next open, at once: exit %d, stdout %q, stderr %q; want id %s", c.step, r.code, r.stdout, r.stderr, next)
		}
		s.checkEstate(t, want)
		if t.Failed() {
			t.Fatalf("killed at %s: the estate is not whole", c.step)
		}
	}
}
