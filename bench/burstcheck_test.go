package main

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/spawnlog"
)

// gaveUpLine is the line of a pa process that gave up, as pa words it.
const gaveUpLine = `pa: agents/burst/spawn-log.json.lock held by pid 10270 on host "vm" (alive: holds the lock's kernel lock, age 4ms, acquiredAt 2026-12-02T00:36:18.421Z): gave up after 10s; clear it with pa --home /tmp/h dispatch unlock --force --agent burst, only once the holder's process is gone or stuck, never while it still runs` + "\n"

// opened is the outcome of a pa process that exited 0 with id.
func opened(pid int, id string) burstOutcome {
	return burstOutcome{PID: pid, Code: 0, State: "exit status 0", Stdout: id + "\n"}
}

func TestTallyBurst(t *testing.T) {
	gaveUp := burstOutcome{PID: 12, Code: 2, State: "exit status 2", Stderr: gaveUpLine}
	tests := []struct {
		name           string
		outs           []burstOutcome
		anchor         bool
		gaveUp, failed int
		want           string // "" for no error, else a part of it
	}{
		{"all recorded", []burstOutcome{opened(10, "2"), opened(11, "1")}, false, 0, 0, ""},
		{"one gave up", []burstOutcome{opened(10, "1"), gaveUp}, false, 1, 0, ""},
		{"exit 1", []burstOutcome{opened(10, "1"), {PID: 11, Code: 1, State: "exit status 1", Stderr: "pa: bad\n"}}, false, 0, 1, "1 of 2 processes failed"},
		{"a signal", []burstOutcome{{PID: 11, Code: -1, State: "signal: killed"}}, false, 0, 1, "signal: killed"},
		{"exit 2 with two lines", []burstOutcome{{PID: 11, Code: 2, Stderr: gaveUpLine + gaveUpLine}}, false, 0, 1, "failed"},
		{"exit 2 not naming the lock", []burstOutcome{{PID: 11, Code: 2, Stderr: "pa: something else\n"}}, false, 0, 1, "failed"},
		{"exit 2 with stdout", []burstOutcome{{PID: 11, Code: 2, Stdout: "3\n", Stderr: gaveUpLine}}, false, 0, 1, "failed"},
		{"exit 0 without an id", []burstOutcome{opened(10, "one")}, false, 0, 1, "want its id alone"},
		{"exit 0 with an id of 0", []burstOutcome{opened(10, "0")}, false, 0, 1, "want its id alone"},
		{"exit 0 with a stderr", []burstOutcome{{PID: 10, Stdout: "1\n", Stderr: "warning\n"}}, false, 0, 1, "want its id alone"},
		{"one id printed twice", []burstOutcome{opened(10, "1"), opened(11, "1")}, false, 0, 1, "printed id 1, as process 0 did"},
		{"the anchor", []burstOutcome{opened(10, "0"), opened(11, "1")}, true, 0, 0, ""},
		{"the anchor, another's id", []burstOutcome{opened(10, "1"), opened(11, "0")}, true, 0, 2, "2 of 2"},
		{"the anchor never gives up", []burstOutcome{opened(10, "0"), gaveUp}, true, 0, 1, "failed"},
		{"many failed, a few quoted", []burstOutcome{{Code: 1}, {Code: 1}, {Code: 1}, {Code: 1}, {Code: 1}}, false, 0, 5, "and 2 more"},
	}
	for _, tt := range tests {
		ids, gaveUp, failed, err := tallyBurst(tt.outs, tt.anchor)
		if gaveUp != tt.gaveUp || failed != tt.failed {
			t.Errorf("%s: gave up %d, failed %d; want %d and %d", tt.name, gaveUp, failed, tt.gaveUp, tt.failed)
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: err = %v, want nil", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err = %v, want an error with %q", tt.name, err, tt.want)
		}
		if len(ids) != len(tt.outs) {
			t.Errorf("%s: %d ids for %d processes", tt.name, len(ids), len(tt.outs))
		}
	}
	ids, _, _, _ := tallyBurst([]burstOutcome{opened(10, "7"), gaveUp}, false)
	if ids[0] != 7 || ids[1] != -1 {
		t.Errorf("ids = %v, want [7 -1]", ids)
	}
}

func TestCheckBurstRecords(t *testing.T) {
	// Processes 0 and 2 recorded ids 2 and 1; process 1 gave up.
	outs := []burstOutcome{opened(100, "2"), {PID: 101, Code: 2}, opened(102, "1")}
	ids := []int{2, -1, 1}
	rec := func(id, pid int, title string) spawnlog.Record {
		return spawnlog.Record{ID: id, Agent: burstAgent, Title: title, PID: pid}
	}
	item := func(id int, title string) board.Item { return board.Item{DispatchID: id, Title: title} }
	recs := []spawnlog.Record{rec(1, 102, "burst 2"), rec(2, 100, "burst 0")}
	items := []board.Item{item(1, "burst 2"), item(2, "burst 0")}
	if err := checkBurstRecords(outs, ids, recs, items); err != nil {
		t.Fatalf("checkBurstRecords of a whole burst = %v, want nil", err)
	}
	for _, tc := range []struct {
		name  string
		recs  []spawnlog.Record
		items []board.Item
		want  string
	}{
		{"a record lost", recs[:1], items, "1 lost"},
		{"a record doubled", append(recs, recs[0]), items, "id 1 twice"},
		{"a record no one printed", append(recs, rec(3, 101, "burst 1")), items, "id 3, which no process"},
		{"another's title", []spawnlog.Record{rec(1, 102, "burst 0"), recs[1]}, items, `title "burst 0"`},
		{"another's pid", []spawnlog.Record{rec(1, 100, "burst 2"), recs[1]}, items, "pid 100"},
		{"an item missing", recs, items[1:], "1 missing"},
		{"an item doubled", recs, append(items, items[1]), "id 2 twice"},
		{"an item no one printed", recs, append(items, item(9, "burst 1")), "id 9"},
		{"an item's title", recs, []board.Item{items[0], item(2, "burst 1")}, `title "burst 1"`},
	} {
		if err := checkBurstRecords(outs, ids, tc.recs, tc.items); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: checkBurstRecords = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	// None got through: an empty spawn-log and board are whole.
	if err := checkBurstRecords([]burstOutcome{{Code: 2}}, []int{-1}, nil, nil); err != nil {
		t.Errorf("checkBurstRecords with none recorded = %v, want nil", err)
	}
}

func TestCheckNames(t *testing.T) {
	allowed := []string{"board", "spawn-log.json"}
	if err := checkNames("agents/burst", []string{"board", "spawn-log.json"}, allowed); err != nil {
		t.Errorf("the two names: %v, want nil", err)
	}
	if err := checkNames("agents/burst", []string{"board"}, allowed); err != nil {
		t.Errorf("one of them: %v, want nil", err)
	}
	for _, left := range []string{"spawn-log.json.lock", "spawn-log.json.lock.pending-ab-1-2", "spawn-log.json.tmp-ab-1-2"} {
		if err := checkNames("agents/burst", []string{"board", left, "spawn-log.json"}, allowed); err == nil || !strings.Contains(err.Error(), left) {
			t.Errorf("%s left: %v, want an error naming it", left, err)
		}
	}
}

func TestCheckAnchorLog(t *testing.T) {
	if err := checkAnchorLog([]byte("2\n0\n1\n"), 3); err != nil {
		t.Errorf("the 3 ids in any order: %v, want nil", err)
	}
	for _, tc := range []struct{ name, log, want string }{
		{"a line lost", "2\n0\n", "2 lines, want 3"},
		{"a line doubled", "2\n0\n0\n", "id 0 twice"},
		{"a line too many", "2\n0\n1\n1\n", "4 lines"},
		{"an id past the end", "2\n0\n3\n", `"3", not an id`},
		{"not an id", "2\n0\n01\n", `"01", not an id`},
		{"a torn last line", "2\n0\n1", "does not end in a whole line"},
		{"empty", "", "does not end"},
	} {
		if err := checkAnchorLog([]byte(tc.log), 3); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: checkAnchorLog = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
