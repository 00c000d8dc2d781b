package main

// config is how much each measure does.
type config struct {
	Smoke bool

	// Uncontended: Updates in a row on a data file of Records records, per
	// contender per round.
	UncontendedRecords, UncontendedUpdates, UncontendedRounds int
	// Contended: Workers processes x Updates each, per contender per round.
	ContendedWorkers, ContendedUpdates, ContendedRounds int
	// Handoff: PerRound handoffs per contender per round.
	HandoffPerRound, HandoffRounds int
	// Growth: one pa dispatch open at each size, per round.
	GrowthSizes  []int
	GrowthRounds int
	// Names: Acquires of each class with each count of unrelated files.
	NamesCounts   []int
	NamesAcquires int
	// Burst: a burst of each size of each program (pa of both classes, the
	// anchor), per round.
	BurstSizes  []int
	BurstRounds int
	// Syncs: Updates in a row on a data file of UncontendedRecords
	// records, per sync variant per round.
	SyncsUpdates, SyncsRounds int
}

// fullConfig is the run: about 10 minutes on 2 cores (6m41s in the
// preliminary run of RESULTS.md, before the burst; one round of the burst
// took 72 s on shared cores, with pa's bursts of 1,024 at 25 to 31 s).
func fullConfig() config {
	return config{
		UncontendedRecords: 100, UncontendedUpdates: 2000, UncontendedRounds: 5,
		ContendedWorkers: 8, ContendedUpdates: 200, ContendedRounds: 5,
		HandoffPerRound: 100, HandoffRounds: 5,
		GrowthSizes: []int{1000, 10000, 100000}, GrowthRounds: 5,
		NamesCounts: []int{0, 1000, 10000}, NamesAcquires: 200,
		BurstSizes: []int{256, 1024}, BurstRounds: 3,
		SyncsUpdates: 1000, SyncsRounds: 5,
	}
}

// smokeConfig runs every measure and every check with tiny counts, in
// seconds, so that the harness never rots (.ci/run). Its figures mean
// nothing and no goal is judged.
func smokeConfig() config {
	return config{
		Smoke:              true,
		UncontendedRecords: 100, UncontendedUpdates: 20, UncontendedRounds: 2,
		ContendedWorkers: 8, ContendedUpdates: 5, ContendedRounds: 1,
		HandoffPerRound: 10, HandoffRounds: 1,
		GrowthSizes: []int{100, 1000}, GrowthRounds: 1,
		NamesCounts: []int{0, 100}, NamesAcquires: 10,
		BurstSizes: []int{16}, BurstRounds: 1,
		SyncsUpdates: 10, SyncsRounds: 1,
	}
}

// withRounds sets every measure's rounds to n (n > 0).
func (c config) withRounds(n int) config {
	c.UncontendedRounds, c.ContendedRounds, c.HandoffRounds, c.GrowthRounds, c.BurstRounds, c.SyncsRounds = n, n, n, n, n, n
	return c
}
