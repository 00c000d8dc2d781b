package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
)

// incidentsLog is demo's incident log, in the estate at home.
func incidentsLog(home string) string {
	return filepath.Join(home, "agents", "demo", "spawn-log.json.lock.incidents.jsonl")
}

// TestIncidentsListsATimeout: an open that times out on a live holder
// leaves a row that dispatch incidents lists, as a line and in --json;
// --since keeps only the recent rows.
func TestIncidentsListsATimeout(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
			t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
		}
		live := os.Getpid()
		estatetest.WriteFile(t, home, "agents/demo/spawn-log.json.lock", lockJSON(live, hostname(), time.Now()))
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"); r.code != exitProblem {
			t.Fatalf("open of a held lock: exit %d, %q", r.code, r.stderr)
		}
		r := c.run(t, home, "dispatch", "incidents", "--agent", "demo")
		fields := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\t")
		if r.code != 0 || strings.Count(r.stdout, "\n") != 1 || len(fields) != 7 || fields[1] != "demo" || fields[2] != "timeout" ||
			!strings.HasPrefix(fields[3], "pid ") || !strings.Contains(fields[6], "inspect pid") {
			t.Fatalf("exit %d, stdout %q, stderr %q; want one timeout row", r.code, r.stdout, r.stderr)
		}
		r = c.run(t, home, "dispatch", "incidents", "--json")
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 || rows[0]["agent"] != "demo" ||
			rows[0]["event"] != "timeout" || rows[0]["kind"] != "file_lock_incident_v0" {
			t.Errorf("--json: %q (%v)", r.stdout, err)
		}
		old := `{"kind":"file_lock_incident_v0","event":"force","time":"2001-01-01T00:00:00Z","lock_id":"lk_0"}` + "\n"
		appendTo(t, incidentsLog(home), old)
		if r := c.run(t, home, "dispatch", "incidents", "--since", "1h"); strings.Count(r.stdout, "\n") != 1 || strings.Contains(r.stdout, "2001") {
			t.Errorf("--since 1h: %q; want the recent row only", r.stdout)
		}
		if r := c.run(t, home, "dispatch", "incidents"); strings.Count(r.stdout, "\n") != 2 || !strings.HasPrefix(r.stdout, "2001") {
			t.Errorf("every row: %q; want two, the oldest first", r.stdout)
		}
		if r := c.run(t, home, "dispatch", "incidents", "--since", "-1h"); r.code != exitUsage {
			t.Errorf("--since -1h: exit %d, want %d", r.code, exitUsage)
		}
		if r := c.run(t, home, "dispatch", "incidents", "--since=-1h"); r.code != exitUsage || r.stderr != "pa: --since -1h0m0s: want a duration of 0 (every row) or more\n" {
			t.Errorf("--since=-1h: exit %d, stderr %q; want %d and that 0 is allowed", r.code, r.stderr, exitUsage)
		}
		if r := c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo"); r.code != 0 {
			t.Fatalf("unlock --force: exit %d, %q", r.code, r.stderr)
		}
		r = c.run(t, home, "dispatch", "incidents", "--json")
		var forced []struct {
			Event  string
			Holder struct{ PID int }
			By     struct {
				PID       int
				Operation string
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &forced); err != nil || len(forced) != 3 || forced[2].Event != "force" ||
			forced[2].Holder.PID != live || forced[2].By.PID == 0 || forced[2].By.Operation != "dispatch unlock" {
			t.Errorf("after unlock --force: %q (%v); want its force row last, naming the holder and who forced it", r.stdout, err)
		}
	})
}

// TestIncidentsHostileLog: an incident log of hostile content is listed
// without harm: rows' values escaped, lines that are no row skipped and
// counted; a directory at its name is an error, not a hang.
func TestIncidentsHostileLog(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
			t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
		}
		row := `{"kind":"file_lock_incident_v0","event":"break","time":"2026-01-01T00:00:00Z","holder":{"pid":1,"hostname":"\u001b[2Jh\u202e\tx"},"operator_action":"a\nb"}` + "\n"
		appendTo(t, incidentsLog(home), row+"not json\n\x00\x1b]0;x\x07\n"+strings.Repeat("y", 5000)+"\n"+`{"kind":"file_lock_incident_v0"`)
		r := c.run(t, home, "dispatch", "incidents", "--agent", "demo")
		if r.code != 0 || strings.Count(r.stdout, "\n") != 1 || strings.ContainsAny(r.stdout, "\x1b\x00\u202e") ||
			!strings.Contains(r.stdout, `"\x1b[2Jh\u202e\tx"`) || !strings.Contains(r.stderr, "4 lines") {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		r = c.run(t, home, "dispatch", "incidents", "--json")
		if strings.ContainsAny(r.stdout, "\x1b\u202e") {
			t.Errorf("--json holds raw control characters: %q", r.stdout)
		}
		if err := os.Remove(incidentsLog(home)); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(incidentsLog(home), 0o755); err != nil {
			t.Fatal(err)
		}
		if r := c.run(t, home, "dispatch", "incidents", "--agent", "demo"); r.code != exitUsage {
			t.Errorf("a directory at the --agent's log's name: exit %d, stderr %q; want %d", r.code, r.stderr, exitUsage)
		}
		// Among every agent, that agent is named and the others go on.
		if r := c.run(t, home, "dispatch", "open", "--agent", "other"); r.code != 0 {
			t.Fatalf("open of other: exit %d, %q", r.code, r.stderr)
		}
		appendTo(t, filepath.Join(home, "agents", "other", "spawn-log.json.lock.incidents.jsonl"), row)
		r = c.run(t, home, "dispatch", "incidents")
		if r.code != exitProblem || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, "\tother\t") ||
			!strings.Contains(r.stderr, "agents/demo/spawn-log.json.lock.incidents.jsonl") || !strings.Contains(r.stderr, "the other agents go on") {
			t.Errorf("a directory at one agent's log, among every agent: exit %d, stdout %q, stderr %q; want exit 2, the other agent's row, that log named", r.code, r.stdout, r.stderr)
		}
	})
}

// appendTo appends data to the file name.
func appendTo(t *testing.T, name, data string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

// A row's holder is "pid N on host H" with its state; one of a lock that
// could not be read (no pid, no host) is said so, not as "pid 0 on host ".
func TestPartyTextOfAnUnreadableHolder(t *testing.T) {
	for _, tc := range []struct {
		p      *locking.IncidentParty
		holder bool
		want   string
	}{
		{&locking.IncidentParty{State: "empty or unreadable"}, true, "no holder read (empty or unreadable)"},
		{&locking.IncidentParty{PID: 7, Hostname: "h", State: "dead", Evidence: "pid 7 is gone"}, true, "pid 7 on host h (dead: pid 7 is gone)"},
		{&locking.IncidentParty{PID: 7, Hostname: "h"}, false, "pid 7 on host h"},
		{nil, false, "-"},
	} {
		if got := partyText(tc.p, tc.holder); got != tc.want {
			t.Errorf("partyText(%+v, %v) = %q; want %q", tc.p, tc.holder, got, tc.want)
		}
	}
}

// An incident log at its cap records no more rows: `pa dispatch incidents`
// says so on stderr, naming the log to move aside, and lists its rows as
// ever; one row short of it, it says nothing.
func TestIncidentsSaysALogAtItsCap(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
	}
	row := `{"kind":"file_lock_incident_v0","event":"timeout","time":"2026-01-01T00:00:00Z","operator_action":"` + strings.Repeat("x", 900) + `"}` + "\n"
	const want = "pa: the incident log of demo is at its cap (1 MiB): new incidents are dropped, not recorded; move agents/demo/spawn-log.json.lock.incidents.jsonl aside to record them again\n"
	rows := (locking.IncidentCap - 4096) / len(row) // room left for the longest row
	appendTo(t, incidentsLog(home), strings.Repeat(row, rows))
	if r := c.run(t, home, "dispatch", "incidents", "--agent", "demo"); r.code != 0 || r.stderr != "" || strings.Count(r.stdout, "\n") != rows {
		t.Errorf("below the cap: exit %d, %d lines, stderr %q; want exit 0, %d rows, nothing on stderr", r.code, strings.Count(r.stdout, "\n"), r.stderr, rows)
	}
	appendTo(t, incidentsLog(home), row+row+row+row+row)
	if r := c.run(t, home, "dispatch", "incidents", "--agent", "demo"); r.code != 0 || r.stderr != want || strings.Count(r.stdout, "\n") != rows+5 {
		t.Errorf("at the cap: exit %d, %d lines, stderr %q; want exit 0, %d rows and %q", r.code, strings.Count(r.stdout, "\n"), r.stderr, rows+5, want)
	}
}
