package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCheckMentionsRecentIncidents: board check names, in one line that
// changes no exit code, the incidents of the last stale window, with the
// command that lists them; an older row is not mentioned.
func TestCheckMentionsRecentIncidents(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
			t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
		}
		old := `{"kind":"file_lock_incident_v0","event":"force","time":"2001-01-01T00:00:00Z","lock_id":"lk_0"}` + "\n"
		appendTo(t, incidentsLog(home), old)
		if r := c.run(t, home, "board", "check"); r.code != 0 || r.stdout != "" {
			t.Errorf("an old row: exit %d, stdout %q; want nothing said", r.code, r.stdout)
		}
		now := `{"kind":"file_lock_incident_v0","event":"timeout","time":"` + time.Now().UTC().Format(time.RFC3339Nano) + `","lock_id":"lk_0"}` + "\n"
		appendTo(t, incidentsLog(home), now+now)
		r := c.run(t, home, "board", "check", "--stale-window", "1h")
		want := "2 lock incidents in the last 1h0m0s: " + plainHome(t, home) + " dispatch incidents --agent demo\n"
		if r.code != 0 || r.stdout != want {
			t.Errorf("exit %d, stdout %q; want exit 0 and %q", r.code, r.stdout, want)
		}
		r = c.run(t, home, "board", "check", "--json")
		if r.code != 0 || !strings.Contains(r.stdout, `"incidents":[{"agent":"demo","count":2,`) {
			t.Errorf("--json: exit %d, stdout %q", r.code, r.stdout)
		}
	})
}

// incidentNoteLine matches board check's line of an agent's recent
// incidents.
var incidentNoteLine = regexp.MustCompile(`(?m)^[0-9]+ lock incidents? in the last .*\n`)

// withoutIncidentNotes is board check's stdout without its lines of
// recent incidents: for the tests of other lines, run after a timeout.
func withoutIncidentNotes(stdout string) string { return incidentNoteLine.ReplaceAllString(stdout, "") }
