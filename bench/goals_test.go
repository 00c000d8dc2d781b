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

// Issue 13's handoff goal is judged for each class at 100 us, beside issue
// 6's 200 us: a median of 150 us passes the one and misses the other.
func TestHandoffGoalOfIssue13(t *testing.T) {
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
