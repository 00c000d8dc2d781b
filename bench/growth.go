package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/estate"
)

// buildPA builds the real `pa` binary (github.com/pa-toolkit/pa/cmd/pa,
// with the main module's own go.mod and go.sum) into dir and returns its
// path: dir/pa, or with build tags (such as "pafault", the test build that
// can refuse link()) dir/pa-<tags>. The main module is found by
// `go list -m`, through this module's replace directive.
func buildPA(dir, tags string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pa-toolkit/pa").Output()
	if err != nil {
		return "", fmt.Errorf("finding the pa module (go list -m; run the harness from bench/): %w", err)
	}
	root := strings.TrimSpace(string(out))
	bin := filepath.Join(dir, "pa")
	if tags != "" {
		bin += "-" + tags
	}
	cmd := exec.Command("go", "build", "-C", root, "-tags="+tags, "-o", bin, "./cmd/pa")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build -tags=%q ./cmd/pa in %s: %w\n%s", tags, root, err, msg)
	}
	return bin, nil
}

// growthRound is one `pa dispatch open` at one size, and the baseline of
// the same round.
type growthRound struct {
	Open       time.Duration // the whole pa process
	PeakRSS    int64         // its ru_maxrss, bytes
	SpawnerRSS int64         // the spawner's own ru_maxrss: a floor under PeakRSS
	WriteOnce  time.Duration // writing the spawn-log pa wrote, once, in-process
	WriteBoth  time.Duration // writing the spawn-log and the board pa wrote, once each
	Check      time.Duration // the whole `pa board check` process on the estate pa wrote
}

// growthRun runs pa once on the estate in dir (restored from in first),
// checks that exactly one record was added, and times the write-once
// baseline in a folder of its own under dir.
func growthRun(pa, dir string, in *growthInput, verifyFormat bool) (growthRound, error) {
	home := filepath.Join(dir, "estate")
	if err := in.restore(home); err != nil {
		return growthRound{}, err
	}
	rep, err := spawn(pa, "--home", home, "dispatch", "open", "--agent", growthAgent, "--title", "growth")
	if err != nil {
		return growthRound{}, fmt.Errorf("pa dispatch open at %d records: %w", in.N, err)
	}
	if rep.ExitCode != 0 {
		return growthRound{}, fmt.Errorf("pa dispatch open at %d records: exit %d; stderr: %s", in.N, rep.ExitCode, rep.Stderr)
	}
	if got := strings.TrimSpace(rep.Stdout); got != strconv.Itoa(in.N+1) {
		return growthRound{}, fmt.Errorf("pa dispatch open at %d records printed id %q, want %d", in.N, got, in.N+1)
	}
	slPath := filepath.Join(home, filepath.FromSlash(estate.SpawnLogPath(growthAgent)))
	bdPath := filepath.Join(home, filepath.FromSlash(estate.BoardPath(growthAgent)))
	sl, err := os.ReadFile(slPath)
	if err != nil {
		return growthRound{}, err
	}
	bd, err := os.ReadFile(bdPath)
	if err != nil {
		return growthRound{}, err
	}
	var written [][]byte
	if verifyFormat {
		written = [][]byte{sl, bd}
	}
	if err := checkEstate(home, in.N+1, written); err != nil {
		return growthRound{}, fmt.Errorf("after pa dispatch open at %d records: %w", in.N, err)
	}
	round := growthRound{Open: rep.Wall, PeakRSS: rep.PeakRSS, SpawnerRSS: rep.SelfRSS}
	// Every dispatch is on the board: the check reads both files whole,
	// matches each record to an item and reports nothing.
	check, err := spawn(pa, "--home", home, "board", "check", "--agent", growthAgent)
	if err != nil {
		return growthRound{}, fmt.Errorf("pa board check at %d records: %w", in.N+1, err)
	}
	if check.ExitCode != 0 {
		return growthRound{}, fmt.Errorf("pa board check at %d records: exit %d, want 0 (every dispatch on the board); stdout: %s; stderr: %s", in.N+1, check.ExitCode, check.Stdout, check.Stderr)
	}
	round.Check = check.Wall
	once := filepath.Join(dir, "write-once")
	if err := os.MkdirAll(once, 0o755); err != nil {
		return growthRound{}, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"spawn-log.json", in.SpawnLog}, {"board.json", in.Board}} {
		if err := writeAtomic(once, f.name, f.data); err != nil { // an existing file to rename over, as pa has
			return growthRound{}, err
		}
	}
	t0 := time.Now()
	if err := writeAtomic(once, "spawn-log.json", sl); err != nil {
		return growthRound{}, err
	}
	round.WriteOnce = time.Since(t0)
	if err := writeAtomic(once, "board.json", bd); err != nil {
		return growthRound{}, err
	}
	round.WriteBoth = time.Since(t0)
	return round, nil
}

// growthResult is the growth measure: each size's rounds.
type growthResult struct {
	Sizes     []int
	FileSize  map[int]int64 // the spawn-log's size after the open, bytes
	BoardSize map[int]int64
	Rounds    map[int][]growthRound
}

// measureGrowth builds pa and runs rounds of one `pa dispatch open` per size
// in a folder under base, the sizes interleaved.
func measureGrowth(base string, sizes []int, rounds int, progress func(string)) (*growthResult, error) {
	dir, err := os.MkdirTemp(base, "growth-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	progress("growth: go build ./cmd/pa")
	pa, err := buildPA(dir, "")
	if err != nil {
		return nil, err
	}
	res := &growthResult{Sizes: sizes, FileSize: map[int]int64{}, BoardSize: map[int]int64{}, Rounds: map[int][]growthRound{}}
	inputs := map[int]*growthInput{}
	for _, n := range sizes {
		progress(fmt.Sprintf("growth: generating %d records", n))
		if inputs[n], err = makeGrowthInput(dir, n); err != nil {
			return nil, err
		}
	}
	for r := range rounds {
		for _, n := range sizes {
			progress(fmt.Sprintf("growth: round %d/%d, %d records", r+1, rounds, n))
			run := filepath.Join(dir, "run-"+strconv.Itoa(n))
			round, err := growthRun(pa, run, inputs[n], r == 0)
			if err != nil {
				return nil, err
			}
			res.Rounds[n] = append(res.Rounds[n], round)
			if r == 0 {
				for path, size := range map[string]map[int]int64{estate.SpawnLogPath(growthAgent): res.FileSize, estate.BoardPath(growthAgent): res.BoardSize} {
					fi, err := os.Stat(filepath.Join(run, "estate", filepath.FromSlash(path)))
					if err != nil {
						return nil, err
					}
					size[n] = fi.Size()
				}
			}
		}
	}
	return res, nil
}
