package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

func main() {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role)) // a worker process of a run
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// measures are the names -only accepts, in the order they run.
var measures = []string{"uncontended", "contended", "handoff", "growth", "names", "burst", "syncs"}

// run is the harness: it parses args, runs the measures, prints the report
// on stdout (progress on stderr) and writes it to the results file. It
// returns the exit code: 0, 1 when a measure failed (a lost record, a
// wrong count, a worker's error), 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("bench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	smoke := fl.Bool("smoke", false, "run every measure with tiny counts, in seconds; judge no goal and write no results file unless -results is given")
	resultsFile := fl.String("results", "RESULTS.md", "the file the report is written to (a full run; a smoke run only when given)")
	note := fl.String("note", "", "a line put at the top of the results file (such as \"Preliminary run\")")
	only := fl.String("only", strings.Join(measures, ","), "the measures to run, comma-separated")
	tmp := fl.String("tmp", os.TempDir(), "the folder the temp-dir measures run in")
	rounds := fl.Int("rounds", 0, "rounds of every measure (0: 5; smoke: 1 or 2)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected arguments %q\n", fl.Args())
		return 2
	}
	want := map[string]bool{}
	for m := range strings.SplitSeq(*only, ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		if !contains(measures, m) {
			fmt.Fprintf(stderr, "bench: -only %q: want some of %s\n", m, strings.Join(measures, ", "))
			return 2
		}
		want[m] = true
	}
	write := !*smoke
	fl.Visit(func(f *flag.Flag) {
		if f.Name == "results" {
			write = true
		}
	})
	cfg := fullConfig()
	if *smoke {
		cfg = smokeConfig()
	}
	if *rounds > 0 {
		cfg = cfg.withRounds(*rounds)
	}

	began := time.Now()
	progress := func(s string) {
		fmt.Fprintf(stderr, "[%7s] %s\n", time.Since(began).Round(time.Second), s)
	}
	var sc scratch
	defer sc.remove()
	defer sc.removeOnSignal()()
	res, err := measureAll(cfg, want, &sc, *tmp, progress)
	if err != nil {
		fmt.Fprintf(stderr, "bench: FAIL: %v\n", err)
		return 1
	}
	res.Took, res.LoadEnd = time.Since(began), loadAverage()
	report := render(res, *note)
	fmt.Fprint(stdout, report)
	if write {
		if err := os.WriteFile(*resultsFile, []byte(report), 0o644); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "bench: wrote %s\n", *resultsFile)
	}
	fmt.Fprintf(stderr, "bench: done in %s\n", res.Took.Round(time.Second))
	return 0
}

// measureAll runs the measures of want, in folders of sc under tmp and on
// a tmpfs.
func measureAll(cfg config, want map[string]bool, sc *scratch, tmp string, progress func(string)) (*results, error) {
	base, err := sc.mkdir(tmp)
	if err != nil {
		return nil, err
	}
	folders := [][2]string{{"temp dir", base}}
	tmpfsBase := ""
	tmpfs, noTmpfs := findTmpfs()
	if tmpfs != "" {
		if tmpfsBase, err = sc.mkdir(tmpfs); err != nil {
			return nil, err
		}
		folders = append(folders, [2]string{"tmpfs", tmpfsBase})
	}
	res := &results{Config: cfg, Machine: describeMachine(folders...), NoTmpfs: noTmpfs}
	if want["uncontended"] {
		u, err := measureUncontended("temp dir", base, cfg.UncontendedRecords, cfg.UncontendedUpdates, cfg.UncontendedRounds, progress)
		if err != nil {
			return nil, err
		}
		res.Uncontended = append(res.Uncontended, u)
		if tmpfsBase != "" {
			u, err := measureUncontended("tmpfs", tmpfsBase, cfg.UncontendedRecords, cfg.UncontendedUpdates, cfg.UncontendedRounds, progress)
			if err != nil {
				return nil, err
			}
			res.Uncontended = append(res.Uncontended, u)
		} else {
			progress("uncontended on a tmpfs: skipped, " + noTmpfs)
		}
	}
	if want["contended"] {
		if res.Contended, err = measureContended(base, cfg.ContendedWorkers, cfg.ContendedUpdates, cfg.ContendedRounds, progress); err != nil {
			return nil, err
		}
	}
	if want["handoff"] {
		if res.Handoff, err = measureHandoff(base, cfg.HandoffPerRound, cfg.HandoffRounds, progress); err != nil {
			return nil, err
		}
	}
	if want["growth"] {
		if res.Growth, err = measureGrowth(base, cfg.GrowthSizes, cfg.GrowthRounds, progress); err != nil {
			return nil, err
		}
	}
	if want["names"] {
		if res.Names, err = measureNames(base, cfg.NamesCounts, cfg.NamesAcquires, progress); err != nil {
			return nil, err
		}
	}
	if want["burst"] {
		if res.Burst, err = measureBurst(base, cfg.BurstSizes, cfg.BurstRounds, progress); err != nil {
			return nil, err
		}
	}
	if want["syncs"] {
		if res.Syncs, err = measureSyncs("temp dir", base, cfg.UncontendedRecords, cfg.SyncsUpdates, cfg.SyncsRounds, progress); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
