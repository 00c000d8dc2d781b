package main

import (
	"math"
	"slices"
	"time"
)

// number is what the statistics work on: durations, counts and ratios.
type number interface {
	~int | ~int64 | ~float64
}

// median returns the median of xs: the middle value, or the mean of the two
// middle values for an even count. It returns 0 for no values and leaves xs
// unchanged.
func median[T number](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return s[m-1] + (s[m]-s[m-1])/2
}

// percentile returns the p-th percentile of xs (0 < p <= 100) by the
// nearest-rank method: the smallest value that at least p% of the values
// are at or below. It returns 0 for no values and leaves xs unchanged.
func percentile[T number](xs []T, p float64) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = min(max(rank, 1), len(s))
	return s[rank-1]
}

// maxOf returns the largest of xs, 0 for none.
func maxOf[T number](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

// ratio is a/b, +Inf when b is 0 and a is not, and NaN when both are 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return math.NaN()
		}
		return math.Inf(1)
	}
	return a / b
}

// pairedRatios returns a[i]/b[i] for each round i: the ratio of a contender
// to its baseline measured in the same round.
func pairedRatios(a, b []time.Duration) []float64 {
	out := make([]float64, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		out = append(out, ratio(float64(a[i]), float64(b[i])))
	}
	return out
}

// pairedDiffs returns a[i]-b[i] for each round i: a contender's time over
// its baseline in the same round.
func pairedDiffs(a, b []time.Duration) []time.Duration {
	out := make([]time.Duration, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		out = append(out, a[i]-b[i])
	}
	return out
}
