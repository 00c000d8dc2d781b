package main

import (
	"math"
	"testing"
	"time"
)

// burstOf pairs each round with the anchor's of the same round, adds up
// the processes that gave up, and takes medians.
func TestBurstOf(t *testing.T) {
	rs := []burstRound{
		{N: 8, Wall: 4 * time.Second, GaveUp: 1, CPU: 80 * time.Millisecond, LoneCPU: 10 * time.Millisecond},
		{N: 8, Wall: 9 * time.Second, GaveUp: 2, CPU: 160 * time.Millisecond, LoneCPU: 10 * time.Millisecond},
		{N: 8, Wall: 6 * time.Second, CPU: 40 * time.Millisecond, LoneCPU: 10 * time.Millisecond},
	}
	anchor := []burstRound{{Wall: 2 * time.Second}, {Wall: 3 * time.Second}, {Wall: 1 * time.Second}}
	f := burstOf(rs, anchor)
	if f.Wall != 6*time.Second || f.VsAnchor != 3 || f.GaveUp != 3 || f.Processes != 24 || f.CPU != 80*time.Millisecond || f.Share != 1 {
		t.Errorf("burstOf = %+v; want wall 6s, 3x the anchor, 3 of 24 gave up, CPU 80ms, share 1", f)
	}
}

func TestFmtShare(t *testing.T) {
	for x, want := range map[float64]string{0.423: "42%", 1: "100%", 1.5: "150%", math.NaN(): "n/a", math.Inf(1): "n/a"} {
		if got := fmtShare(x); got != want {
			t.Errorf("fmtShare(%v) = %q, want %q", x, got, want)
		}
	}
}
