package main

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{7}, 7},
		{[]time.Duration{3, 1, 2}, 2},
		{[]time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2 in integers
		{[]time.Duration{10, 40, 20, 30}, 25},
		{[]time.Duration{5, 5, 1, 100, 5}, 5},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.xs)
		if got := median(tt.xs); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
		if !slices.Equal(in, tt.xs) {
			t.Errorf("median changed its input: %v, was %v", tt.xs, in)
		}
	}
	if got := median([]float64{1, 2}); got != 1.5 {
		t.Errorf("median(1, 2) = %v, want 1.5", got)
	}
}

func TestPercentile(t *testing.T) {
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted
	}
	tests := []struct {
		xs   []int
		p    float64
		want int
	}{
		{nil, 99, 0},
		{[]int{5}, 99, 5},
		{hundred, 99, 99},
		{hundred, 100, 100},
		{hundred, 50, 50},
		{hundred, 1, 1},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 1000}, 99, 1000}, // nearest rank: ceil(9.9) = 10th
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 1000}, 90, 9},
	}
	for _, tt := range tests {
		if got := percentile(tt.xs, tt.p); got != tt.want {
			t.Errorf("percentile(%d values, %v) = %v, want %v", len(tt.xs), tt.p, got, tt.want)
		}
	}
}

func TestPaired(t *testing.T) {
	a := []time.Duration{10, 30, 20}
	b := []time.Duration{5, 10, 0}
	r := pairedRatios(a, b)
	if r[0] != 2 || r[1] != 3 || !math.IsInf(r[2], 1) {
		t.Errorf("pairedRatios = %v, want [2 3 +Inf]", r)
	}
	if d := pairedDiffs(a, b); !slices.Equal(d, []time.Duration{5, 20, 20}) {
		t.Errorf("pairedDiffs = %v, want [5 20 20]", d)
	}
	if !math.IsNaN(ratio(0, 0)) {
		t.Errorf("ratio(0, 0) = %v, want NaN", ratio(0, 0))
	}
}

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		figure, limit float64
		want          string
	}{
		{1.0, 1.05, "PASS"}, {1.05, 1.05, "PASS"}, {1.06, 1.05, "MISS"},
		{math.NaN(), 2, "MISS"}, {math.Inf(1), 2, "MISS"}, {0, 0, "PASS"}, {1, 0, "MISS"},
	} {
		if got := judge(tc.figure, tc.limit); got != tc.want {
			t.Errorf("judge(%v, %v) = %s, want %s", tc.figure, tc.limit, got, tc.want)
		}
	}
}
