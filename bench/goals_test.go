package main

import (
	"strings"
	"testing"
	"time"
)

// verdicts returns the verdict of each goal whose text holds all of subs.
func verdicts(gs []goal, subs ...string) []string {
	var out []string
	for _, g := range gs {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(g.What, s)
		}
		if all {
			out = append(out, g.Verdict)
		}
	}
	return out
}

// The handoff's 100 us goal is judged for each class, beside the
// 200 us one: a median of 150 us passes the one and misses the other.
func TestHandoffGoalOf100us(t *testing.T) {
	round := func(d time.Duration) []handoffRound {
		return []handoffRound{{Times: []time.Duration{d, d, d}}}
	}
	res := &results{Handoff: &handoffResult{Rounds: map[string][]handoffRound{
		paLinks.Key: round(150 * time.Microsecond), paNoLinks.Key: round(150 * time.Microsecond),
		gofrsFlock.Key: round(40 * time.Microsecond),
	}}}
	gs := goals(res)
	for _, c := range []Contender{paLinks, paNoLinks} {
		if got := verdicts(gs, "Handoff, "+c.Name+":", "median at most 100 us"); len(got) != 1 || got[0] != "MISS" && !strings.HasPrefix(got[0], "not judged") {
			t.Errorf("%s: the 100 us goal's verdicts %q, want one MISS for 150 us", c.Name, got)
		}
		if got := verdicts(gs, "Handoff, "+c.Name+":", "median at most 200 us"); len(got) != 1 || got[0] != "PASS" && !strings.HasPrefix(got[0], "not judged") {
			t.Errorf("%s: the 200 us goal's verdicts %q, want one PASS for 150 us", c.Name, got)
		}
	}
}

// The waiters' CPU goal is judged for each class at 2x gofrs/flock's, in
// the same round: 1.9x passes, 2.1x misses.
func TestWaitersCPUGoal(t *testing.T) {
	for _, c := range []struct {
		ours time.Duration
		want string
	}{{190 * time.Millisecond, "PASS"}, {210 * time.Millisecond, "MISS"}} {
		rounds := map[string][]contendRound{gofrsFlock.Key: {{WaitCPU: 100 * time.Millisecond}}}
		rounds[paLinks.Key] = []contendRound{{WaitCPU: c.ours}}
		rounds[paNoLinks.Key] = []contendRound{{WaitCPU: c.ours}}
		gs := goals(&results{Contended: &contendedResult{Rounds: rounds}})
		for _, k := range []Contender{paLinks, paNoLinks} {
			if got := verdicts(gs, "Contended, 8 processes, "+k.Name+":", "waiters' CPU at most 2x"); len(got) != 1 || got[0] != c.want {
				t.Errorf("%s at %v vs 100ms: verdicts %q, want %s", k.Name, c.ours, got, c.want)
			}
		}
	}
}

// The burst goals are judged for each class at 1,024: none gives up
// in any round (one in one round misses), and the wall time's median
// paired ratio to the blocking-flock program's is at most 2x (1.9x passes,
// 2.1x misses). A run without a burst of 1,024 judges neither.
func TestBurstGoals(t *testing.T) {
	anchor := []burstRound{{N: burstBig, Wall: 5 * time.Second}, {N: burstBig, Wall: 5 * time.Second}}
	for _, c := range []struct {
		wall   time.Duration
		gaveUp int
		none   string
		wall2x string
	}{
		{9500 * time.Millisecond, 0, "PASS", "PASS"},
		{10500 * time.Millisecond, 1, "MISS", "MISS"},
	} {
		ours := []burstRound{{N: burstBig, Wall: c.wall}, {N: burstBig, Wall: c.wall, GaveUp: c.gaveUp}}
		res := &results{Burst: &burstResult{Sizes: []int{burstBig}, Rounds: map[string]map[int][]burstRound{
			paLinks.Key: {burstBig: ours}, paNoLinks.Key: {burstBig: ours}, burstAnchorKey: {burstBig: anchor},
		}}}
		gs := goals(res)
		for _, k := range []Contender{paLinks, paNoLinks} {
			if got := verdicts(gs, "Burst of 1,024 pa dispatch open, "+k.Name+":", "none gives up"); len(got) != 1 || got[0] != c.none {
				t.Errorf("%s, %d gave up: verdicts %q, want %s", k.Name, c.gaveUp, got, c.none)
			}
			if got := verdicts(gs, "Burst of 1,024, "+k.Name+":", "at most 2x"); len(got) != 1 || got[0] != c.wall2x {
				t.Errorf("%s at %v vs 5s: verdicts %q, want %s", k.Name, c.wall, got, c.wall2x)
			}
		}
	}
	small := &results{Burst: &burstResult{Sizes: []int{16}, Rounds: map[string]map[int][]burstRound{
		paLinks.Key: {16: {{N: 16}}}, paNoLinks.Key: {16: {{N: 16}}}, burstAnchorKey: {16: {{N: 16}}},
	}}}
	if got := verdicts(goals(small), "Burst of 1,024"); len(got) != 4 || got[0] != notRun || got[3] != notRun {
		t.Errorf("a run without a burst of 1,024: verdicts %q, want 4 x %q", got, notRun)
	}
}

// The kernel lock's uncontended goal is judged on each folder at 1.05x
// gofrs/flock's, paired round by round: 1.02x passes, 1.2x misses.
func TestKernelLockUncontendedGoal(t *testing.T) {
	for _, c := range []struct {
		ratio float64
		want  string
	}{{1.02, "PASS"}, {1.2, "MISS"}} {
		flock := []time.Duration{100 * time.Microsecond, 110 * time.Microsecond}
		ours := []time.Duration{time.Duration(float64(flock[0]) * c.ratio), time.Duration(float64(flock[1]) * c.ratio)}
		res := &results{Uncontended: []*uncontendedResult{
			{Label: "tmpfs", PerUpdate: map[string][]time.Duration{paKernel.Key: ours, gofrsFlock.Key: flock}},
			{Label: "temp dir", PerUpdate: map[string][]time.Duration{paKernel.Key: ours, gofrsFlock.Key: flock}},
		}}
		for _, label := range []string{"tmpfs", "temp dir"} {
			if got := verdicts(goals(res), "Uncontended update on the "+label+", "+paKernel.Name+":"); len(got) != 1 || got[0] != c.want {
				t.Errorf("%s at %.2fx: verdicts %q; want one %s", label, c.ratio, got, c.want)
			}
		}
	}
}
