package main

import (
	"fmt"
	"strings"
	"time"
)

// roundTables are the figures of every round, behind the medians: one
// table per measure, a row per contender (or size), a cell per round.
func roundTables(res *results) []table {
	var out []table
	durs := func(ds []time.Duration) string {
		cells := make([]string, 0, len(ds))
		for _, d := range ds {
			cells = append(cells, fmtDur(d))
		}
		return strings.Join(cells, ", ")
	}
	for _, u := range res.Uncontended {
		t := table{Title: fmt.Sprintf("Rounds: uncontended on the %s, time per update", u.Label), Head: []string{"contender", "each round, in order"}}
		for _, c := range allContenders {
			t.Rows = append(t.Rows, []string{c.Name, durs(u.PerUpdate[c.Key])})
		}
		out = append(out, t)
	}
	if u := res.Syncs; u != nil {
		t := table{Title: fmt.Sprintf("Rounds: syncs on the %s, time per update", u.Label), Head: []string{"variant", "each round, in order"}}
		for _, v := range syncVariants {
			t.Rows = append(t.Rows, []string{v.Name, durs(u.PerUpdate[v.Key])})
		}
		out = append(out, t)
	}
	if c := res.Contended; c != nil {
		t := table{Title: "Rounds: contended", Head: []string{"contender", "wall", "longest wait", "waiters' CPU", "lock changed process", "timeouts"}}
		for _, k := range lockContenders {
			rs := c.Rounds[k.Key]
			var changes, timeouts []string
			for _, r := range rs {
				changes = append(changes, fmt.Sprint(r.Changes))
				timeouts = append(timeouts, fmt.Sprint(r.Timeouts))
			}
			t.Rows = append(t.Rows, []string{k.Name,
				durs(pick(rs, func(r contendRound) time.Duration { return r.Wall })),
				durs(pick(rs, func(r contendRound) time.Duration { return r.MaxWait })),
				durs(pick(rs, func(r contendRound) time.Duration { return r.WaitCPU })),
				strings.Join(changes, ", "), strings.Join(timeouts, ", ")})
		}
		out = append(out, t)
	}
	if h := res.Handoff; h != nil {
		t := table{Title: "Rounds: handoff, median and p99 of each round", Head: []string{"contender", "median", "p99"}}
		for _, c := range handoffContenders {
			rs := h.Rounds[c.Key]
			t.Rows = append(t.Rows, []string{c.Name,
				durs(pick(rs, func(r handoffRound) time.Duration { return median(r.Times) })),
				durs(pick(rs, func(r handoffRound) time.Duration { return percentile(r.Times, 99) }))})
		}
		out = append(out, t)
	}
	if g := res.Growth; g != nil {
		t := table{Title: "Rounds: growth", Head: []string{"records", "pa dispatch open", "write the spawn-log once", "peak memory"}}
		for _, n := range g.Sizes {
			rs := g.Rounds[n]
			var rss []string
			for _, r := range rs {
				rss = append(rss, fmtBytes(r.PeakRSS))
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(n),
				durs(pick(rs, func(r growthRound) time.Duration { return r.Open })),
				durs(pick(rs, func(r growthRound) time.Duration { return r.WriteOnce })),
				strings.Join(rss, ", ")})
		}
		out = append(out, t)
	}
	if b := res.Burst; b != nil {
		t := table{Title: "Rounds: burst", Head: []string{"at once", "program", "wall", "gave up", "holder's share of CPU"}}
		for _, n := range b.Sizes {
			for _, p := range burstPrograms {
				rs := b.Rounds[p.Key][n]
				var gaveUp, shares []string
				for _, r := range rs {
					gaveUp = append(gaveUp, fmt.Sprint(r.GaveUp))
					shares = append(shares, fmtShare(r.share()))
				}
				t.Rows = append(t.Rows, []string{fmt.Sprint(n), p.Name,
					durs(pick(rs, func(r burstRound) time.Duration { return r.Wall })),
					strings.Join(gaveUp, ", "), strings.Join(shares, ", ")})
			}
		}
		out = append(out, t)
	}
	return out
}
