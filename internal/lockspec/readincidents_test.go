package lockspec_test

import (
	"os"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// TestReadIncidentsHostile: a log of any content is read without harm:
// torn, too long, not JSON, control bytes are skipped; a directory is an
// error.
func TestReadIncidentsHostile(t *testing.T) {
	e := newEstate(t, classes[0])
	good := `{"kind":"file_lock_incident_v0","event":"timeout","holder":{"pid":1,"hostname":"\u001b[2J"}}` + "\n"
	junk := good + "not json\n\x00\x07\x1b]0;x\x07\n" + strings.Repeat("x", 2*lockspec.MaxIncidentRow) + "\n" +
		`{"kind":"other"}` + "\n" + good + `{"kind":"file_lock_incident_v0"`
	e.writeRaw(t, incidentsP, []byte(strings.Repeat(junk, 2*lockspec.IncidentCap/len(junk))))
	got, err := lockspec.ReadIncidents(e.fsys, target)
	if err != nil || !got.Truncated || len(got.Rows) == 0 || got.Skipped == 0 {
		t.Fatalf("ReadIncidents: %d rows, %d skipped, truncated %v, %v", len(got.Rows), got.Skipped, got.Truncated, err)
	}
	if err := os.Remove(e.path(incidentsP)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(e.path(incidentsP), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := lockspec.ReadIncidents(e.fsys, target); err == nil {
		t.Error("a directory read as an incident log")
	}
}
