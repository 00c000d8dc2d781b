package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// burstAgent is the agent every pa process of a burst opens on.
const burstAgent = "burst"

// burstLoneRuns is how many processes of each program a round runs alone,
// one after another, each on a fresh estate: the median of their CPU is
// what one costs when nothing waits.
const burstLoneRuns = 5

// burstBig is the burst the goals are about: 1,024 at once.
const burstBig = 1024

// burster is one program of the burst measure: pa of one class, or the
// anchor.
type burster struct {
	Key, Name string   // the classes' own (paLinks, paNoLinks), so that the goals name them alike
	Anchor    bool     // the blocking-flock program (burstanchor), not pa
	fault     []string // the variables the pafault build needs for this class
	bin       string   // the built binary, set by withBinaries
	env       []string // its environment, set by withBinaries
}

// The anchor's key and how the tables show it.
const (
	burstAnchorKey  = "anchor"
	burstAnchorName = "blocking-flock program"
)

// burstPrograms are the programs of the measure, in the order the tables
// show them: pa with hard links (the shipped build), pa without (the
// pafault build, run with PA_FAULT_LINK_ERRNO=ENOTSUP: every link() fails),
// and the anchor.
var burstPrograms = []burster{
	{Key: paLinks.Key, Name: paLinks.Name},
	{Key: paNoLinks.Key, Name: paNoLinks.Name, fault: []string{"PA_FAULT_LINK_ERRNO=ENOTSUP"}},
	{Key: burstAnchorKey, Name: burstAnchorName, Anchor: true},
}

// withBinaries is burstPrograms with their binaries: pa (the shipped
// build), paFault (-tags pafault) and anchor. Each runs with this
// process's environment less any PA_* variable, plus its fault.
func withBinaries(pa, paFault, anchor string) []burster {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PA_") {
			env = append(env, kv)
		}
	}
	bins := map[string]string{paLinks.Key: pa, paNoLinks.Key: paFault, burstAnchorKey: anchor}
	progs := slices.Clone(burstPrograms)
	for i, p := range progs {
		progs[i].bin, progs[i].env = bins[p.Key], append(slices.Clone(env), p.fault...)
	}
	return progs
}

// args are the arguments of process i of a burst on home: `pa dispatch
// open` with the default --wait, or the anchor's folder and id.
func (b burster) args(home string, i int) []string {
	if b.Anchor {
		return []string{home, strconv.Itoa(i)}
	}
	return []string{"dispatch", "open", "--home", home, "--agent", burstAgent, "--title", burstTitle(i)}
}

// buildAnchor builds the anchor (./burstanchor, a small main package of
// this module) into dir and returns its path.
func buildAnchor(dir string) (string, error) {
	bin := filepath.Join(dir, "burstanchor")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/pa-toolkit/pa/bench/burstanchor")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./burstanchor (run the harness from bench/): %w\n%s", err, msg)
	}
	return bin, nil
}

// burstRound is one burst of one program: N processes started at once.
type burstRound struct {
	N        int
	Wall     time.Duration // from the first Start to the last Wait's return
	GaveUp   int           // pa processes that exited 2, their line naming the lock
	Failed   int           // processes that failed otherwise: 0 in a result (any fails the run)
	CPU      time.Duration // the N processes' user+sys (rusage at exit), added up
	LoneCPU  time.Duration // the median CPU of one process of the program run alone, in the same round
	StartCPU time.Duration // pa: the median CPU of `pa version` alone, in the same round (its start-up and exit); 0 for the anchor
}

// floor is the least wall time the burst can take on cores cores when
// waiting costs nothing: N processes of LoneCPU each, spread over every
// core.
func (r burstRound) floor(cores int) time.Duration {
	return time.Duration(float64(r.N) * float64(r.LoneCPU) / float64(cores))
}

// startCPU is the median CPU of burstLoneRuns runs of `pa version` (p is pa
// of either class): what a process of pa costs before and after its work.
func startCPU(p burster) (time.Duration, error) {
	var cpus []time.Duration
	for range burstLoneRuns {
		cmd := exec.Command(p.bin, "version")
		cmd.Env = p.env
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("%s version: %w\n%s", p.Name, err, out)
		}
		cpus = append(cpus, cpuOf(cmd.ProcessState))
	}
	return median(cpus), nil
}

// share is the holder's share of CPU: what the N processes would cost one
// at a time (N x LoneCPU) over what the burst cost (CPU). It is 1 when
// waiting costs nothing; the rest of the burst's CPU went to waiting.
func (r burstRound) share() float64 {
	return ratio(float64(r.N)*float64(r.LoneCPU), float64(r.CPU))
}

// burstResult is the burst measure: each program's rounds at each N.
type burstResult struct {
	Sizes  []int
	Rounds map[string]map[int][]burstRound // by program key, then N, in round order
}

// measureBurst builds pa (both builds) and the anchor, then runs rounds of
// bursts in folders under base: in each round, first burstLoneRuns lone
// processes of each program, then a burst of each size of each program, the
// programs' order rotating from round to round.
func measureBurst(base string, sizes []int, rounds int, progress func(string)) (*burstResult, error) {
	dir, err := os.MkdirTemp(base, "burst-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	progress("burst: go build ./cmd/pa, and with -tags pafault, and ./burstanchor")
	pa, err := buildPA(dir, "")
	if err != nil {
		return nil, err
	}
	paFault, err := buildPA(dir, "pafault")
	if err != nil {
		return nil, err
	}
	anchor, err := buildAnchor(dir)
	if err != nil {
		return nil, err
	}
	if err := raiseNoFile(3*slices.Max(sizes) + 64); err != nil {
		return nil, err
	}
	progs := withBinaries(pa, paFault, anchor)
	res := &burstResult{Sizes: sizes, Rounds: map[string]map[int][]burstRound{}}
	for _, p := range progs {
		res.Rounds[p.Key] = map[int][]burstRound{}
	}
	for r := range rounds {
		lone, starts := map[string]time.Duration{}, map[string]time.Duration{}
		for _, p := range rotate(progs, r) {
			progress(fmt.Sprintf("burst: round %d/%d, %s alone x%d", r+1, rounds, p.Name, burstLoneRuns))
			var cpus []time.Duration
			for range burstLoneRuns {
				one, err := burstRun(p, dir, 1)
				if err != nil {
					return nil, err
				}
				cpus = append(cpus, one.CPU)
			}
			lone[p.Key] = median(cpus)
			if !p.Anchor {
				if starts[p.Key], err = startCPU(p); err != nil {
					return nil, err
				}
			}
		}
		for _, n := range sizes {
			for _, p := range rotate(progs, r) {
				progress(fmt.Sprintf("burst: round %d/%d, %d at once, %s", r+1, rounds, n, p.Name))
				round, err := burstRun(p, dir, n)
				if err != nil {
					return nil, err
				}
				round.LoneCPU, round.StartCPU = lone[p.Key], starts[p.Key]
				res.Rounds[p.Key][n] = append(res.Rounds[p.Key][n], round)
			}
		}
	}
	return res, nil
}

// raiseNoFile raises this process's soft RLIMIT_NOFILE to need when it is
// lower (a burst keeps each child's stdout and stderr file and its process
// handle open until its end), or fails when the hard limit is lower.
func raiseNoFile(need int) error {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("getrlimit(RLIMIT_NOFILE): %w", err)
	}
	if rl.Cur >= uint64(need) {
		return nil
	}
	if rl.Max < uint64(need) {
		return fmt.Errorf("RLIMIT_NOFILE's hard limit %d is below the %d files a burst keeps open", rl.Max, need)
	}
	rl.Cur = uint64(need)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("setrlimit(RLIMIT_NOFILE, %d): %w", need, err)
	}
	return nil
}

// burstRun runs one burst: n processes of p on a fresh estate (or anchor's
// folder) under base, started one after another as fast as exec can, with
// no shell, each with its own stdout and stderr file (opened beforehand in
// base/out, so the start loop opens nothing). The wall time runs from the
// first Start to the last Wait's return. Afterwards every outcome is sorted
// (tallyBurst) and every record checked (checkBurstEstate,
// checkAnchorLog): a process that failed otherwise than giving up, or a
// record lost, doubled or foreign, fails the burst.
func burstRun(p burster, base string, n int) (burstRound, error) {
	home, err := os.MkdirTemp(base, "run-"+p.Key+"-")
	if err != nil {
		return burstRound{}, err
	}
	defer os.RemoveAll(home)
	fail := func(err error) (burstRound, error) {
		return burstRound{}, fmt.Errorf("burst of %d, %s: %w", n, p.Name, err)
	}
	outDir := filepath.Join(base, "out")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fail(err)
	}
	stdin, err := os.Open(os.DevNull)
	if err != nil {
		return fail(err)
	}
	defer stdin.Close()
	outPath := func(i int, stream string) string {
		return filepath.Join(outDir, strconv.Itoa(i)+"."+stream)
	}
	var files []*os.File
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	cmds := make([]*exec.Cmd, n)
	for i := range cmds {
		cmd := exec.Command(p.bin, p.args(home, i)...)
		cmd.Env, cmd.Stdin, cmd.SysProcAttr = p.env, stdin, workerAttr()
		for _, stream := range []string{"stdout", "stderr"} {
			f, err := os.OpenFile(outPath(i, stream), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				return fail(err)
			}
			files = append(files, f)
		}
		cmd.Stdout, cmd.Stderr = files[2*i], files[2*i+1]
		cmds[i] = cmd
	}

	start := time.Now()
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			for _, started := range cmds[:i] {
				_ = started.Process.Kill()
				_ = started.Wait()
			}
			return fail(fmt.Errorf("starting process %d: %w", i, err))
		}
	}
	var waitErr error
	for _, cmd := range cmds {
		var ee *exec.ExitError
		if err := cmd.Wait(); err != nil && !errors.As(err, &ee) && waitErr == nil {
			waitErr = err
		}
	}
	round := burstRound{N: n, Wall: time.Since(start)}
	if waitErr != nil {
		return fail(waitErr)
	}

	outs := make([]burstOutcome, n)
	for i, cmd := range cmds {
		ps := cmd.ProcessState
		stdout, err := os.ReadFile(outPath(i, "stdout"))
		if err != nil {
			return fail(err)
		}
		stderr, err := os.ReadFile(outPath(i, "stderr"))
		if err != nil {
			return fail(err)
		}
		o := burstOutcome{PID: cmd.Process.Pid, Code: ps.ExitCode(), State: ps.String(), Stdout: string(stdout), Stderr: string(stderr), CPU: cpuOf(ps)}
		outs[i] = o
		round.CPU += o.CPU
	}
	ids, gaveUp, failed, err := tallyBurst(outs, p.Anchor)
	round.GaveUp, round.Failed = gaveUp, failed
	if err != nil {
		return fail(err)
	}
	if p.Anchor {
		err = checkAnchorFolder(home, n)
	} else {
		err = checkBurstEstate(home, outs, ids)
	}
	if err != nil {
		return fail(err)
	}
	return round, nil
}

// checkBurstEstate checks the estate home after a burst of pa with the
// packages' own readers (spawnlog.Read, board.Read): every record of the
// outcomes (checkBurstRecords), and nothing beside the spawn-log and the
// board in the agent's folders (checkNames).
func checkBurstEstate(home string, outs []burstOutcome, ids []int) error {
	fsys, err := osfs.New(home)
	if err != nil {
		return err
	}
	defer fsys.Close()
	log, err := spawnlog.Read(fsys, burstAgent)
	if err != nil {
		return err
	}
	b, err := board.Read(fsys, burstAgent)
	if err != nil {
		return err
	}
	if err := checkBurstRecords(outs, ids, log.Records, b.Items); err != nil {
		return err
	}
	// The incident logs of the two locks are allowed beside them: a burst
	// that times out or breaks a lock writes its rows there, and that is
	// no leftover of a step.
	for d, allowed := range map[string][]string{
		estate.AgentDir(burstAgent): {"board", "spawn-log.json", path.Base(locking.IncidentsName(estate.SpawnLogPath(burstAgent)))},
		estate.BoardDir(burstAgent): {"board.json", path.Base(locking.IncidentsName(estate.BoardPath(burstAgent)))},
	} {
		entries, err := fsys.ReadDir(d)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if err := checkNames(d, got, allowed); err != nil {
			return err
		}
	}
	return nil
}

// checkAnchorFolder checks the anchor's folder after a burst of n: its log
// (checkAnchorLog), and nothing beside it and its lock (no temp file).
func checkAnchorFolder(dir string, n int) error {
	data, err := os.ReadFile(filepath.Join(dir, "log.txt"))
	if err != nil {
		return err
	}
	if err := checkAnchorLog(data, n); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	return checkNames(dir, got, []string{"log.lock", "log.txt"})
}
