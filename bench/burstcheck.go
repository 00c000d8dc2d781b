package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/spawnlog"
)

// burstOutcome is how one process of a burst ended.
type burstOutcome struct {
	PID            int
	Code           int           // its exit code; -1 when a signal ended it
	State          string        // os.ProcessState's words: "exit status 1", "signal: killed"
	Stdout, Stderr string        // all it wrote
	CPU            time.Duration // its user and system CPU (rusage)
}

// burstLockName is what the one line of a pa process that gave up names:
// the spawn-log's lock.
const burstLockName = "spawn-log.json.lock"

// burstTitle is the title pa process i of a burst gives: its record and its
// board item are told apart from the others' by it. (The anchor's id for
// process i is i.)
func burstTitle(i int) string { return "burst " + strconv.Itoa(i) }

// tallyBurst sorts the outcomes of a burst, process i at outs[i]. A process
// that exited 0 printed its id alone (pa: a positive number; the anchor,
// anchor true: i) and nothing on stderr: ids[i] is that id (-1 for the
// others). A pa process that gave up exited 2 with nothing on stdout and one
// line on stderr that names the lock: gaveUp counts them. Any other outcome
// fails the burst: exit 1 or another code, a signal, exit 2 of the anchor
// or without its line, another output, or an id that two processes
// printed. Then err counts the processes that failed (failed) and quotes the
// first few.
func tallyBurst(outs []burstOutcome, anchor bool) (ids []int, gaveUp, failed int, err error) {
	ids = make([]int, len(outs))
	var problems []string
	bad := func(i int, why string) {
		failed++
		problems = append(problems, fmt.Sprintf("process %d (pid %d): %s", i, outs[i].PID, why))
	}
	printedBy := map[int]int{}
	for i, o := range outs {
		ids[i] = -1
		switch {
		case o.Code == 0:
			id, perr := strconv.Atoi(strings.TrimSuffix(o.Stdout, "\n"))
			want := perr == nil && o.Stdout == strconv.Itoa(id)+"\n" && o.Stderr == "" && id > 0
			if anchor {
				want = perr == nil && o.Stdout == strconv.Itoa(i)+"\n" && o.Stderr == ""
			}
			if !want {
				bad(i, fmt.Sprintf("exit 0 with stdout %q and stderr %q, want its id alone", o.Stdout, o.Stderr))
				continue
			}
			if j, dup := printedBy[id]; dup {
				bad(i, fmt.Sprintf("printed id %d, as process %d did", id, j))
				continue
			}
			printedBy[id], ids[i] = i, id
		case o.Code == 2 && !anchor && o.Stdout == "" && strings.Count(o.Stderr, "\n") == 1 &&
			strings.HasSuffix(o.Stderr, "\n") && strings.Contains(o.Stderr, burstLockName):
			gaveUp++
		default:
			bad(i, fmt.Sprintf("%s, stdout %q, stderr %q", o.State, o.Stdout, o.Stderr))
		}
	}
	if failed > 0 {
		const quoted = 3
		more := ""
		if len(problems) > quoted {
			more = fmt.Sprintf("; and %d more", len(problems)-quoted)
			problems = problems[:quoted]
		}
		err = fmt.Errorf("%d of %d processes failed otherwise than giving up: %s%s", failed, len(outs), strings.Join(problems, "; "), more)
	}
	return ids, gaveUp, failed, err
}

// checkBurstRecords checks what a burst of pa left in the spawn-log (recs)
// and on the board (items), as spawnlog.Read and board.Read read them:
// exactly one record and one item for each id printed (ids from tallyBurst,
// -1 for a process that printed none), with the title that process gave
// (burstTitle) and, in the record, its pid; no other, none twice.
func checkBurstRecords(outs []burstOutcome, ids []int, recs []spawnlog.Record, items []board.Item) error {
	byID := map[int]int{}
	for i, id := range ids {
		if id >= 0 {
			byID[id] = i
		}
	}
	// entry checks one record or item of the id, title and pid (pid < 0:
	// none to check), seen for the first time in seen.
	entry := func(what string, id int, title string, pid int, seen map[int]bool) error {
		i, ok := byID[id]
		switch {
		case !ok:
			return fmt.Errorf("the %s holds id %d, which no process that exited 0 printed", what, id)
		case seen[id]:
			return fmt.Errorf("the %s holds id %d twice", what, id)
		case title != burstTitle(i):
			return fmt.Errorf("the %s's id %d has title %q; process %d, which printed it, gave %q", what, id, title, i, burstTitle(i))
		case pid >= 0 && pid != outs[i].PID:
			return fmt.Errorf("the %s's id %d has pid %d; process %d, which printed it, was pid %d", what, id, pid, i, outs[i].PID)
		}
		seen[id] = true
		return nil
	}
	seen := map[int]bool{}
	for _, r := range recs {
		if err := entry("spawn-log", r.ID, r.Title, r.PID, seen); err != nil {
			return err
		}
	}
	if len(seen) != len(byID) {
		return fmt.Errorf("the spawn-log holds %d of the %d ids printed: %d lost", len(seen), len(byID), len(byID)-len(seen))
	}
	seen = map[int]bool{}
	for _, it := range items {
		if err := entry("board", it.DispatchID, it.Title, -1, seen); err != nil {
			return err
		}
	}
	if len(seen) != len(byID) {
		return fmt.Errorf("the board holds %d of the %d ids printed: %d missing", len(seen), len(byID), len(byID)-len(seen))
	}
	return nil
}

// checkNames checks that the folder dir holds no name but those allowed
// (got is its listing): no lock, pending, broken, claim or temp name left.
func checkNames(dir string, got, allowed []string) error {
	var extra []string
	for _, name := range got {
		if !slices.Contains(allowed, name) {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		return fmt.Errorf("%s holds %q beside %q: left by the burst", dir, extra, allowed)
	}
	return nil
}

// checkAnchorLog checks the anchor's log after a burst of n: exactly n
// lines, the ids 0 to n-1, each once.
func checkAnchorLog(data []byte, n int) error {
	if n == 0 && len(data) == 0 {
		return nil
	}
	text, ok := strings.CutSuffix(string(data), "\n")
	if !ok {
		return fmt.Errorf("the anchor's log of %d bytes does not end in a whole line", len(data))
	}
	if lines := strings.Split(text, "\n"); len(lines) != n {
		return fmt.Errorf("the anchor's log holds %d lines, want %d", len(lines), n)
	}
	seen := make([]bool, n)
	for k, line := range strings.Split(text, "\n") {
		i, err := strconv.Atoi(line)
		switch {
		case err != nil || i < 0 || i >= n || line != strconv.Itoa(i):
			return fmt.Errorf("the anchor's log line %d is %q, not an id of the burst (0 to %d)", k+1, line, n-1)
		case seen[i]:
			return fmt.Errorf("the anchor's log holds id %d twice", i)
		}
		seen[i] = true
	}
	return nil
}
