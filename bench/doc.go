// Command bench is the benchmark harness: the spawn-log lock
// measured side by side with the locks a Go user would pick instead, on one
// machine in one run.
//
// Run it from this folder (it is its own module, so the other locks stay out
// of the main go.mod):
//
//	go run .          # the full run, about 10 minutes on 2 cores; writes RESULTS.md
//	go run . -smoke   # every measure with tiny counts, in seconds; judges nothing
//
// Every contender does the same work, a read-modify-write of a JSON file
// under its lock (the JSON step is [appendRecord]; the write path is a temp
// file, fsync, rename, folder fsync). The measures are the five:
// uncontended updates, 8 contending processes, the handoff between two
// processes, the growth of one `pa dispatch open` with the spawn-log, and
// the names beside the lock; a sixth, the burst; and a seventh, the
// lock's syncs (syncs.go: the uncontended update with each kind of fsync
// dropped in turn through a faultfs Drop rule, beside the update that
// keeps them all, for what each costs on the temp dir's disk). Rounds interleave the contenders (A B A B) and
// every figure is a median over rounds; ratios are against a baseline
// measured in the same round.
//
// The burst measure runs whole processes: N `pa dispatch open
// --home DIR --agent burst` (N = 256 and 1,024; 16 in a smoke run) started
// at once on one agent with the default --wait, for each class (the real
// binary, and its -tags pafault build run with PA_FAULT_LINK_ERRNO=ENOTSUP,
// where every link() fails), beside an anchor in the same rounds: a small Go
// program (./burstanchor, built at run time) that takes a blocking flock(2)
// and does a read-modify-write of its own log (temp, fsync, rename, folder
// fsync). Per program and N it reports the wall time from the first start
// to the last exit, how many gave up (exit 2), the processes' CPU added up
// (rusage), and the holder's share of CPU: N times the CPU of one process
// run alone in the same round, over the burst's CPU, the part of the
// machine that did the work rather than wait. Every record is checked
// after every burst: one in the spawn-log and one on the board for each id
// printed, no other, and nothing left beside them; a process that exits 1
// or is killed fails the run.
//
// A run that loses a record, duplicates one, or counts a wrong number of
// records is a failure (exit 1), never a result. A missed goal is a result:
// the goals table says MISS with the figure.
//
// The harness re-runs its own binary as the worker processes (the
// environment variable PA_BENCH_ROLE selects the role). It builds and runs
// on Linux and macOS; a measure that needs Linux (the tmpfs, found in
// /proc/mounts) says so and is skipped elsewhere.
package main
