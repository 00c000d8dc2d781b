package main

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"
)

// results are everything one run measured; a measure that did not run is
// nil.
type results struct {
	Machine     Machine
	Config      config
	Uncontended []*uncontendedResult // the temp dir, then the tmpfs
	NoTmpfs     string               // why there is no tmpfs measure, or ""
	Contended   *contendedResult
	Handoff     *handoffResult
	Growth      *growthResult
	Names       *namesResult
	Burst       *burstResult
	Syncs       *uncontendedResult // the sync variants, on the temp dir
	Took        time.Duration
	LoadEnd     string // the load average at the end (Linux), "" elsewhere
}

// uncontendedTable is the uncontended measure on one folder: each
// contender's median time per update, and the medians of its per-round
// ratios to gofrs/flock and to the floor and of its time over the floor.
func uncontendedTable(u *uncontendedResult, fs string) table {
	t := table{
		Title: fmt.Sprintf("1. Uncontended, on the %s (%s)", u.Label, fs),
		Head:  []string{"contender", "per update", "vs gofrs/flock", "vs floor", "lock's own cost (over the floor)"},
		Notes: []string{fmt.Sprintf("One process; per contender and round, %d updates (after %d untimed), each a read-modify-write of its own file of %d records (append one, drop the oldest), run in slices of %d in a row with the contenders' slices interleaved (A B C ... A B C ...), so that a change in the machine's load falls on all alike. Rounds: %d, the order rotating; medians over rounds. A ratio or a cost is taken within each round (the contender against the baseline of the same round), then the median of those is shown.",
			u.Updates, uncontendedWarmup, u.Records, uncontendedSlice, len(u.PerUpdate[floor.Key]))},
	}
	fl, fo := u.PerUpdate[gofrsFlock.Key], u.PerUpdate[floor.Key]
	for _, c := range allContenders {
		d := u.PerUpdate[c.Key]
		t.Rows = append(t.Rows, []string{c.Name, fmtDur(median(d)),
			fmtRatio(median(pairedRatios(d, fl))), fmtRatio(median(pairedRatios(d, fo))), fmtDur(median(pairedDiffs(d, fo)))})
	}
	return t
}

// contendedTable is the contended measure.
func contendedTable(c *contendedResult) table {
	t := table{
		Title: fmt.Sprintf("2. Contended: %d processes x %d updates on one file", c.Workers, c.Updates),
		Head:  []string{"contender", "wall", "vs flock", "CPU", "lock changed process", "longest wait", "vs flock", "waiters' CPU", "vs flock", "timeouts"},
	}
	fl := c.Rounds[gofrsFlock.Key]
	for _, k := range lockContenders {
		rs := c.Rounds[k.Key]
		wall, cpu, maxWait, waitCPU := pick(rs, func(r contendRound) time.Duration { return r.Wall }),
			pick(rs, func(r contendRound) time.Duration { return r.CPU }),
			pick(rs, func(r contendRound) time.Duration { return r.MaxWait }),
			pick(rs, func(r contendRound) time.Duration { return r.WaitCPU })
		changes, timeouts := make([]int, 0, len(rs)), 0
		for _, r := range rs {
			changes = append(changes, r.Changes)
			timeouts += r.Timeouts
		}
		t.Rows = append(t.Rows, []string{k.Name,
			fmtDur(median(wall)), fmtRatio(median(pairedRatios(wall, pick(fl, func(r contendRound) time.Duration { return r.Wall })))),
			fmtDur(median(cpu)),
			fmt.Sprintf("%d", median(changes)),
			fmtDur(median(maxWait)), fmtRatio(median(pairedRatios(maxWait, pick(fl, func(r contendRound) time.Duration { return r.MaxWait })))),
			fmtDur(median(waitCPU)), fmtRatio(median(pairedRatios(waitCPU, pick(fl, func(r contendRound) time.Duration { return r.WaitCPU })))),
			fmt.Sprintf("%d", timeouts)})
	}
	t.Notes = []string{
		fmt.Sprintf("Rounds: %d, the contenders interleaved; medians over rounds (ratios: the median of the ratios within each round). The worker processes are this binary run again; all start at once.", len(fl)),
		"wall: from the start to the last worker's report. CPU: the workers' user+sys (rusage at exit), added up. Lock changed process: the records whose writer differs from the one before them, in the final file. Longest wait: the longest single wait of any acquire, from the call to the moment the lock is held (ours: the step hook at acquire:published). Waiters' CPU: the process CPU clock (CLOCK_PROCESS_CPUTIME_ID) read around each wait, added up over all workers. Timeouts: updates that gave up after 10 s (ours and nightlyone's loop; flock and lockedfile wait without a timeout), added up over the rounds; each was run again, so every record is still checked.",
		fmt.Sprintf("Checked after every run: each of the %d records present exactly once, each worker's in its order; a lost or doubled record fails the run, and so does any error of a worker other than a timeout: a table shown had none. The floor is not run here: with no lock it loses records.", c.Workers*c.Updates),
	}
	return t
}

// pick maps rounds to one figure each.
func pick[R any](rs []R, f func(R) time.Duration) []time.Duration {
	out := make([]time.Duration, 0, len(rs))
	for _, r := range rs {
		out = append(out, f(r))
	}
	return out
}

// handoffFigures are one contender's handoff figures, all rounds pooled.
type handoffFigures struct {
	N                int
	Median, P99, Max time.Duration
	CPUPerWaitSecond time.Duration // CPU per second of waiting
	Wait, WaitCPU    time.Duration
}

func handoffOf(rs []handoffRound) handoffFigures {
	var all []time.Duration
	var f handoffFigures
	for _, r := range rs {
		all = append(all, r.Times...)
		f.Wait += r.Wait
		f.WaitCPU += r.WaitCPU
	}
	f.N = len(all)
	f.Median, f.P99, f.Max = median(all), percentile(all, 99), maxOf(all)
	if f.Wait > 0 {
		f.CPUPerWaitSecond = time.Duration(float64(f.WaitCPU) / f.Wait.Seconds())
	}
	return f
}

// handoffTable is the handoff measure.
func handoffTable(h *handoffResult) table {
	t := table{
		Title: "3. Handoff: two processes ping-pong the lock",
		Head:  []string{"contender", "handoffs", "median", "p99", "max", "waiters' CPU per s of waiting"},
	}
	for _, c := range handoffContenders {
		f := handoffOf(h.Rounds[c.Key])
		t.Rows = append(t.Rows, []string{c.Name, fmt.Sprintf("%d", f.N), fmtDur(f.Median), fmtDur(f.P99), fmtDur(f.Max), fmtDur(f.CPUPerWaitSecond)})
	}
	t.Notes = []string{
		fmt.Sprintf("Rounds: %d of %d handoffs per contender, interleaved; the handoffs pooled. The holder keeps the lock a random %s to %s, reads CLOCK_MONOTONIC (t0) and stores it in a page both processes map, then calls release; the handoff ends when the other process's acquire returns (CLOCK_MONOTONIC again). After a release the releaser waits until the other says it holds the lock before it asks again, so every acquire is a handoff; each run checks that the handoffs alternate and none is missing. Waiters' CPU: the process CPU clock around each acquire, divided by the time spent waiting.",
			len(h.Rounds[paLinks.Key]), h.PerRound, minHold, maxHold),
	}
	return t
}

// growthFigures are one size's growth figures.
type growthFigures struct {
	Open, WriteOnce, WriteBoth time.Duration // medians
	Check                      time.Duration // median
	OpenVsOnce                 float64       // median of the per-round ratios
	PeakRSS                    int64         // median
	SpawnerRSS                 int64         // the largest spawner's own peak: a floor under PeakRSS
}

func growthOf(rs []growthRound) growthFigures {
	var f growthFigures
	open := pick(rs, func(r growthRound) time.Duration { return r.Open })
	once := pick(rs, func(r growthRound) time.Duration { return r.WriteOnce })
	f.Open, f.WriteOnce = median(open), median(once)
	f.WriteBoth = median(pick(rs, func(r growthRound) time.Duration { return r.WriteBoth }))
	f.Check = median(pick(rs, func(r growthRound) time.Duration { return r.Check }))
	f.OpenVsOnce = median(pairedRatios(open, once))
	rss := make([]int64, 0, len(rs))
	for _, r := range rs {
		rss = append(rss, r.PeakRSS)
	}
	f.PeakRSS = median(rss)
	for _, r := range rs {
		f.SpawnerRSS = max(f.SpawnerRSS, r.SpawnerRSS)
	}
	return f
}

// growthTable is the growth measure.
func growthTable(g *growthResult) table {
	t := table{
		Title: "4. Growth: one whole `pa dispatch open` process",
		Head:  []string{"records", "spawn-log", "board", "pa dispatch open", "write the spawn-log once", "ratio", "write both once", "peak memory", "vs spawn-log size", "pa board check"},
	}
	var floorRSS int64
	for _, n := range g.Sizes {
		f := growthOf(g.Rounds[n])
		floorRSS = max(floorRSS, f.SpawnerRSS)
		t.Rows = append(t.Rows, []string{fmt.Sprintf("%d", n), fmtBytes(g.FileSize[n]), fmtBytes(g.BoardSize[n]),
			fmtDur(f.Open), fmtDur(f.WriteOnce), fmtRatio(f.OpenVsOnce), fmtDur(f.WriteBoth),
			fmtBytes(f.PeakRSS), fmtRatio(ratio(float64(f.PeakRSS), float64(g.FileSize[n]))), fmtDur(f.Check)})
	}
	t.Notes = []string{
		fmt.Sprintf("The real binary (go build ./cmd/pa), run as `pa --home DIR dispatch open --agent %s --title growth` on an estate holding that many records in the spawn-log and as many items on the board (the state after that many opens), generated in the packages' format and checked with spawnlog.Read and board.Read, and, after the first run of each size, byte for byte against what pa wrote. Rounds: %d, the sizes interleaved, the input restored (fsynced) before each run; after each run the spawn-log and the board hold exactly one more, and nothing else is left beside them.",
			growthAgent, len(g.Rounds[g.Sizes[0]])),
		"pa dispatch open: the process's wall time, start to exit. Write once: the spawn-log pa wrote, written again in-process with the same path (temp, write, fsync, rename over an existing file, folder fsync); write both: the board too. Ratio: the median of open / write-once within each round. Peak memory: pa's ru_maxrss; its ratio is to the spawn-log's size.",
		fmt.Sprintf("pa board check: the process's wall time, `pa --home DIR board check --agent %s` run after each open on the estate it wrote (every dispatch on the board, so it reads both files whole, matches each record to its item and reports nothing).", growthAgent),
		fmt.Sprintf("pa is started by a small spawner process (this binary again), not by the harness: on Linux a child's ru_maxrss is at least the peak memory of the process that started it, and the harness holds the inputs. The spawners' own peak was at most %s, a floor under the peak memory shown.", fmtBytes(floorRSS)),
	}
	return t
}

// namesTable is the names measure.
func namesTable(n *namesResult) table {
	t := table{
		Title: "5. Names beside the lock: acquire time",
		Head:  []string{"unrelated files"},
	}
	for _, c := range namesContenders {
		t.Head = append(t.Head, c.Name, "vs 0 files")
	}
	for _, count := range n.Counts {
		row := []string{fmt.Sprintf("%d", count)}
		for _, c := range namesContenders {
			m := median(n.Times[c.Key][count])
			row = append(row, fmtDur(m), fmtRatio(ratio(float64(m), float64(median(n.Times[c.Key][n.Counts[0]])))))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = []string{fmt.Sprintf("locking.Acquire timed from the call to its return (the sweep lists the folder at every acquire), Hold.Release outside the timing; %d acquires per class and count (after %d untimed), the two classes alternating; medians. The first column's ratio is to the first count.", n.Acquires, namesWarmup)}
	return t
}

// burstFigures are one program's figures at one N, over its rounds.
type burstFigures struct {
	Wall, CPU, LoneCPU        time.Duration // medians
	StartCPU, Floor           time.Duration // medians (Floor: burstRound.floor on this machine's cores)
	VsAnchor                  float64       // the median of the wall's per-round ratios to the anchor's
	FloorVsAnchor             float64       // the median of the floor's per-round ratios to the anchor's wall
	Share                     float64       // the median of the per-round holder's shares of CPU
	GaveUp, Failed, Processes int           // added up over the rounds
}

// burstOf is the figures of rs, with anchor the anchor's rounds at the same
// N (paired by round).
func burstOf(rs, anchor []burstRound) burstFigures {
	wall := pick(rs, func(r burstRound) time.Duration { return r.Wall })
	f := burstFigures{
		Wall:     median(wall),
		CPU:      median(pick(rs, func(r burstRound) time.Duration { return r.CPU })),
		LoneCPU:  median(pick(rs, func(r burstRound) time.Duration { return r.LoneCPU })),
		StartCPU: median(pick(rs, func(r burstRound) time.Duration { return r.StartCPU })),
		Floor:    median(pick(rs, func(r burstRound) time.Duration { return r.floor(runtime.NumCPU()) })),
		VsAnchor: median(pairedRatios(wall, pick(anchor, func(r burstRound) time.Duration { return r.Wall }))),
	}
	f.FloorVsAnchor = median(pairedRatios(pick(rs, func(r burstRound) time.Duration { return r.floor(runtime.NumCPU()) }),
		pick(anchor, func(r burstRound) time.Duration { return r.Wall })))
	shares := make([]float64, 0, len(rs))
	for _, r := range rs {
		shares = append(shares, r.share())
		f.GaveUp += r.GaveUp
		f.Failed += r.Failed
		f.Processes += r.N
	}
	f.Share = median(shares)
	return f
}

// fmtStart shows a start-up CPU, or "-" for a program with none measured.
func fmtStart(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmtDur(d)
}

// fmtShare shows a share as a percentage: "42%", or "n/a".
func fmtShare(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

// burstTable is the burst measure.
func burstTable(b *burstResult) table {
	t := table{
		Title: "6. Burst: N whole processes started at once on one lock",
		Head:  []string{"at once", "program", "wall", "vs flock program", "gave up", "failed otherwise", "CPU", "one alone", "start-up alone", "floor", "floor vs flock program", "holder's share of CPU"},
	}
	rounds := 0
	for _, n := range b.Sizes {
		anchor := b.Rounds[burstAnchorKey][n]
		rounds = len(anchor)
		for _, p := range burstPrograms {
			f := burstOf(b.Rounds[p.Key][n], anchor)
			t.Rows = append(t.Rows, []string{fmt.Sprint(n), p.Name, fmtDur(f.Wall), fmtRatio(f.VsAnchor),
				fmt.Sprintf("%d of %d", f.GaveUp, f.Processes), fmt.Sprint(f.Failed),
				fmtDur(f.CPU), fmtDur(f.LoneCPU), fmtStart(f.StartCPU), fmtDur(f.Floor), fmtRatio(f.FloorVsAnchor), fmtShare(f.Share)})
		}
	}
	t.Notes = []string{
		fmt.Sprintf("Rounds: %d. In each, first %d processes of each program run alone, one after another, each on a fresh estate; then a burst of each size of each program, on a fresh estate, the programs' order rotating from round to round. Medians over rounds; a ratio or a share is taken within each round (against the flock program's burst of the same round and size), then the median of those is shown.", rounds, burstLoneRuns),
		fmt.Sprintf("pa: the real binary (go build ./cmd/pa), run as `pa dispatch open --home DIR --agent %s --title \"burst <i>\"` with the default --wait (%s), all on one agent; pa (no hard links) is the build with -tags pafault, run with PA_FAULT_LINK_ERRNO=ENOTSUP (every link() fails). The %s (./burstanchor, a small Go program built at run time) takes flock(2) LOCK_EX on log.lock, blocking in the kernel with no timeout, reads log.txt, appends its id, writes a temp file, fsyncs it, renames it over and fsyncs the folder.", burstAgent, Timeout, burstAnchorName),
		"At once: the harness starts the N processes one after another as fast as exec can (no shell), each with its stdout and stderr in a file of its own. Wall: from the first start to the last exit. Gave up: pa's exit 2, its one line naming the lock, added up over the rounds. Failed otherwise: exit 1, a signal or a wrong output; any fails the run, as a lost record does. CPU: the N processes' user+sys (rusage at exit), added up. One alone: the median CPU of one process of the program run alone, in the same round. Start-up alone: the median CPU of `pa version` alone (the process's start-up and exit, with no lock and no file), in the same round. Floor: N x one alone / the machine's cores, the least wall time the burst can take when waiting costs nothing; floor vs flock program: that floor over the flock program's wall time in the same round, the least ratio pa's own work allows. Holder's share of CPU: N x one alone / CPU, the part of the burst's CPU that did the work; the rest went to waiting.",
		"Checked after every burst: the spawn-log (spawnlog.Read) holds exactly one record for each id a process that exited 0 printed, with that process's title and pid, and no other; the board (board.Read) one item for each, and no other; nothing is left beside them in agents/burst/ and its board folder (no lock, no pending, broken, claim or temp name). The flock program's log holds exactly N lines, its N ids, each once.",
	}
	return t
}

// contenderNotes says how each contender is used.
func contenderNotes() table {
	t := table{Title: "The contenders", Head: []string{"contender", "how it is used"}}
	for _, c := range allContenders {
		t.Rows = append(t.Rows, []string{c.Name, c.Note})
	}
	t.Notes = []string{"Every contender does the same work: read the JSON file, decode it (encoding/json), append one record, encode it, write a temp file, fsync it, rename it over, fsync the folder, under its lock. The JSON step is one function for all; the others' write path is one hand-written function (ours: the lock's own commit, which adds the fence)."}
	return t
}

// machineText is the report's machine section.
func machineText(m Machine, took time.Duration, cfg config, loadEnd string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- date: %s\n- cores: %d (%s)\n- system: %s, %s\n- Go: %s\n", m.Date, m.Cores, m.CPU, m.OS, m.Kernel, m.Go)
	if m.Load != "" {
		fmt.Fprintf(&b, "- load average (1, 5, 15 min) at the start: %s, at the end: %s (other work may share these cores: absolute times are then noisy, the ratios are within a round)\n", m.Load, loadEnd)
	}
	for _, f := range m.Folders {
		fmt.Fprintf(&b, "- %s: %s, %s\n", f.Label, f.Path, f.FS)
	}
	mode := "full"
	if cfg.Smoke {
		mode = "smoke (tiny counts: the figures mean nothing, no goal is judged)"
	}
	fmt.Fprintf(&b, "- run: %s, took %s\n", mode, took.Round(time.Second))
	return b.String()
}

// render is the whole report: the note, the machine, every table, the
// goals.
func render(res *results, note string) string {
	var b strings.Builder
	b.WriteString("# Benchmark results\n\n")
	if note != "" {
		b.WriteString(note + "\n\n")
	}
	b.WriteString("Produced by `cd bench && go run .`.\n\n## Machine\n\n")
	b.WriteString(machineText(res.Machine, res.Took, res.Config, res.LoadEnd))
	b.WriteString("\n## Results\n\n")
	var tables []table
	fsOf := func(label string) string {
		for _, f := range res.Machine.Folders {
			if f.Label == label {
				return f.Short
			}
		}
		return "?"
	}
	for _, u := range res.Uncontended {
		tables = append(tables, uncontendedTable(u, fsOf(u.Label)))
	}
	if res.NoTmpfs != "" && res.Uncontended != nil {
		tables = append(tables, table{Title: "1. Uncontended, on a tmpfs", Head: []string{"skipped"}, Rows: [][]string{{res.NoTmpfs}}})
	}
	if res.Contended != nil {
		tables = append(tables, contendedTable(res.Contended))
	}
	if res.Handoff != nil {
		tables = append(tables, handoffTable(res.Handoff))
	}
	if res.Growth != nil {
		tables = append(tables, growthTable(res.Growth))
	}
	if res.Names != nil {
		tables = append(tables, namesTable(res.Names))
	}
	if res.Burst != nil {
		tables = append(tables, burstTable(res.Burst))
	}
	if res.Syncs != nil {
		tables = append(tables, syncsTable(res.Syncs, fsOf(res.Syncs.Label)))
	}
	for _, t := range append([]table{goalsTable(res)}, tables...) {
		b.WriteString(t.markdown() + "\n")
	}
	b.WriteString("## Notes\n\n")
	b.WriteString(contenderNotes().markdown())
	b.WriteString("\n## Every round\n\n")
	for i, t := range roundTables(res) {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t.markdown())
	}
	return b.String()
}
