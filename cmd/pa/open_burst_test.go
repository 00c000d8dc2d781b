package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// burstSize is how many `pa dispatch open` processes TestBurstOfOpens starts
// at once: a burst sized for CI (2 cores), where the 1,024 at once belongs to
// the benchmark.
const burstSize = 128

// burstAgent is the one agent every process of the burst opens on.
const burstAgent = "burst"

// burstTitle is the title process i of a burst gives: its record and its
// board item are told apart from the others' by it.
func burstTitle(i int) string { return "burst " + strconv.Itoa(i) }

// TestBurstOfOpens: 128 `pa dispatch open` processes started at
// once on one agent, with the default --wait, lose nothing and fail no
// other way. Every process exits 0, printing its id alone, or 2, with one
// line that leads with the lock; never 1 or a signal. The spawn-log holds
// exactly one record for each id printed, with that process's title and
// pid, and nothing else; the board holds one item for each, and nothing
// else; nothing is left beside them (no lock, no pending, broken, claim or
// temp name). It judges no time: how many give up is logged, not checked
// (the benchmark's burst measure is the figure), but a burst in which none
// got through is a wedge and fails.
//
// No holder dies in a burst, so no lock may be broken (guarantee 2): the
// pafault build runs with PA_FAULT_STEP=break:confirmed, which kills a
// process the moment its break is confirmed (the lock re-read still holds
// the bytes judged, their holder still provably dead), and a process
// killed is a failure. Not break:judged: a holder that releases and exits
// between a waiter's read of its lock and the waiter's look at its pid is
// judged dead from bytes already gone, which the confirm then finds (seen
// under a load average of 21 on 2 cores); that is no break. That build runs with hard links too (burstClasses), since a
// live lock broken there is seldom a record lost: the holder's fence
// refuses its commit and it tries again, and every other check passes.
func TestBurstOfOpens(t *testing.T) {
	for _, c := range burstClasses {
		t.Run(c.name, func(t *testing.T) { burstOfOpens(t, c) })
	}
}

// burstClasses are the builds and classes a burst runs: the shipped build
// (links), and the pafault build, in which a break kills its process, with
// hard links and without.
var burstClasses = append(slices.Clone(binClasses), binClass{"links, pafault", func() string { return paFaultBin }, ""})

// burstOfOpens is one burst of TestBurstOfOpens, of class c.
func burstOfOpens(t *testing.T, c binClass) {
	home := t.TempDir()
	cmds := make([]*exec.Cmd, burstSize)
	stdouts, stderrs := make([]bytes.Buffer, burstSize), make([]bytes.Buffer, burstSize)
	noBreak := []string{"PA_FAULT_STEP=" + string(lockspec.StepBreakConfirmed)} // read by the pafault build alone
	for i := range cmds {
		cmds[i] = c.command(home, noBreak, "dispatch", "open", "--agent", burstAgent, "--title", burstTitle(i))
		cmds[i].Stdout, cmds[i].Stderr = &stdouts[i], &stderrs[i]
	}
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			for _, started := range cmds[:i] {
				_ = started.Process.Kill()
				_ = started.Wait()
			}
			t.Fatalf("starting process %d of the burst: %v", i, err)
		}
	}
	for _, cmd := range cmds {
		_ = cmd.Wait() // the outcome is read from ProcessState below
	}

	byID := map[int]int{} // a printed id -> the process that printed it
	lead := "pa: " + lockDisplay(burstAgent)
	gaveUp := 0
	for i, cmd := range cmds {
		stdout, stderr := stdouts[i].String(), stderrs[i].String()
		switch code := cmd.ProcessState.ExitCode(); code {
		case 0:
			id, err := strconv.Atoi(strings.TrimSuffix(stdout, "\n"))
			if err != nil || stdout != fmt.Sprintf("%d\n", id) || stderr != "" {
				t.Errorf("process %d: exit 0, stdout %q, stderr %q; want its id alone", i, stdout, stderr)
				continue
			}
			if j, dup := byID[id]; dup {
				t.Errorf("processes %d and %d both printed id %d", j, i, id)
			}
			byID[id] = i
		case exitProblem:
			gaveUp++
			rest, ok := strings.CutPrefix(stderr, lead)
			if stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || !ok || !holderLead.MatchString(rest) {
				t.Errorf("process %d: exit 2, stdout %q, stderr %q; want one line leading with %q and its holder", i, stdout, stderr, lead)
			}
		default:
			t.Errorf("process %d: %v, stdout %q, stderr %q; want exit 0 or 2 (killed: it broke a lock whose holder lives, at %s)", i, cmd.ProcessState, stdout, stderr, lockspec.StepBreakConfirmed)
		}
	}
	t.Logf("%d processes: %d recorded, %d gave up", burstSize, len(byID), gaveUp)
	if len(byID) == 0 {
		t.Fatalf("none of the %d processes got through: a wedge", burstSize)
	}

	fsys, err := osfs.New(home)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	log, err := spawnlog.Read(fsys, burstAgent)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.Read(fsys, burstAgent)
	if err != nil {
		t.Fatal(err)
	}
	// entry checks one entry of the spawn-log or the board: an id one
	// process printed, with its title, seen once in seen.
	entry := func(what string, id int, title string, seen map[int]bool) (int, bool) {
		i, ok := byID[id]
		switch {
		case !ok:
			t.Errorf("the %s holds id %d, which no process that exited 0 printed", what, id)
		case seen[id]:
			t.Errorf("the %s holds id %d twice", what, id)
		case title != burstTitle(i):
			t.Errorf("the %s's id %d has title %q; process %d, which printed it, gave %q", what, id, title, i, burstTitle(i))
		}
		seen[id] = true
		return i, ok
	}
	seen := map[int]bool{}
	for _, r := range log.Records {
		if i, ok := entry("spawn-log", r.ID, r.Title, seen); ok && r.PID != cmds[i].Process.Pid {
			t.Errorf("the spawn-log's id %d has pid %d; process %d, which printed it, was pid %d", r.ID, r.PID, i, cmds[i].Process.Pid)
		}
	}
	if len(seen) != len(byID) {
		t.Errorf("the spawn-log holds %d of the %d ids printed", len(seen), len(byID))
	}
	seen = map[int]bool{}
	for _, it := range b.Items {
		entry("board", it.DispatchID, it.Title, seen)
	}
	if len(seen) != len(byID) {
		t.Errorf("the board holds %d of the %d ids printed", len(seen), len(byID))
	}
	want := []string{"agents/", "agents/burst/", "agents/burst/board/", "agents/burst/board/board.json", "agents/burst/spawn-log.json"}
	if got := estatetest.Files(t, home); !slices.Equal(got, want) {
		t.Errorf("the estate holds %q; want %q (a lock or a name beside it left?)", got, want)
	}
}
