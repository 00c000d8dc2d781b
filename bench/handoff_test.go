package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// samples makes handoff samples numbered seqs, each taking seq microseconds.
func samples(seqs ...int64) []handoffSample {
	out := make([]handoffSample, 0, len(seqs))
	for _, s := range seqs {
		out = append(out, handoffSample{Seq: s, T: time.Duration(s) * time.Microsecond})
	}
	return out
}

func TestCheckHandoffs(t *testing.T) {
	// The first process took the lock before handoff 1, so the second
	// takes the odd handoffs and the first the even ones.
	times, err := checkHandoffs(samples(2, 4), samples(1, 3, 5), 5)
	if err != nil {
		t.Fatalf("checkHandoffs of a clean ping-pong = %v, want nil", err)
	}
	want := []time.Duration{1 * time.Microsecond, 2 * time.Microsecond, 3 * time.Microsecond, 4 * time.Microsecond, 5 * time.Microsecond}
	if !slices.Equal(times, want) {
		t.Errorf("times = %v, want them in handoff order %v", times, want)
	}
	for _, tc := range []struct {
		name          string
		first, second []handoffSample
		want          string
	}{
		{"one missing", samples(2), samples(1, 3, 5), "handoff 4 of 5 missing"},
		{"one twice", samples(2, 4, 4), samples(1, 3, 5), "taken twice"},
		{"a releaser took it again", samples(2, 4, 5), samples(1, 3), "by the process that released it"},
		{"a number past the end", samples(2, 4, 6), samples(1, 3, 5), "handoff number 6"},
		{"a number zero", samples(0, 2, 4), samples(1, 3, 5), "handoff number 0"},
		{"before its release", samples(2, 4), append(samples(1, 3), handoffSample{Seq: 5, T: -time.Microsecond}), "before its release"},
	} {
		_, err := checkHandoffs(tc.first, tc.second, 5)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: checkHandoffs = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

func TestHandoffOf(t *testing.T) {
	var times []time.Duration
	for i := 1; i <= 200; i++ {
		times = append(times, time.Duration(i)*time.Microsecond)
	}
	f := handoffOf([]handoffRound{
		{Times: times[:100], Wait: time.Second, WaitCPU: 10 * time.Millisecond},
		{Times: times[100:], Wait: time.Second, WaitCPU: 30 * time.Millisecond},
	})
	if f.N != 200 || f.Median != 100500*time.Nanosecond || f.P99 != 198*time.Microsecond || f.Max != 200*time.Microsecond {
		t.Errorf("handoffOf pooled = n %d, median %v, p99 %v, max %v; want 200, 100.5us, 198us, 200us", f.N, f.Median, f.P99, f.Max)
	}
	if f.CPUPerWaitSecond != 20*time.Millisecond {
		t.Errorf("CPU per second of waiting = %v, want 20ms (40ms over 2s)", f.CPUPerWaitSecond)
	}
}
