package main

import (
	"math"
	"testing"
	"time"
)

// The holder's share is N x one alone over the burst's CPU: 1 when the
// burst cost what N lone runs cost, 0.25 when waiting took three quarters.
func TestBurstRoundShare(t *testing.T) {
	for _, tc := range []struct {
		r    burstRound
		want float64
	}{
		{burstRound{N: 4, LoneCPU: 10 * time.Millisecond, CPU: 40 * time.Millisecond}, 1},
		{burstRound{N: 4, LoneCPU: 10 * time.Millisecond, CPU: 160 * time.Millisecond}, 0.25},
		{burstRound{N: 1024, LoneCPU: 12 * time.Millisecond, CPU: 0}, math.Inf(1)},
	} {
		if got := tc.r.share(); got != tc.want {
			t.Errorf("share of %+v = %v, want %v", tc.r, got, tc.want)
		}
	}
}
