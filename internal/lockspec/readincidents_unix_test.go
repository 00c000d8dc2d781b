//go:build unix

package lockspec_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// TestIncidentsFIFO: a FIFO at the incident log's name blocks neither its
// read nor a timeout's append: both fail at once.
func TestIncidentsFIFO(t *testing.T) {
	e := newEstate(t, classes[0])
	if err := syscall.Mkfifo(e.path(incidentsP), 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := lockspec.ReadIncidents(e.fsys, target); err == nil {
		t.Error("a FIFO read as an incident log")
	}
	m, holder := holdLock(t, e)
	defer holder.Release()
	o := fast(m.Spawn())
	o.Timeout, o.IncidentWait = 5*time.Millisecond, time.Minute
	te := timedOut(t, e, o)
	if te.Incident == nil || errors.Is(te.Incident, lockspec.ErrIncidentStalled) {
		t.Errorf("Incident = %v, want the append's error", te.Incident)
	}
}
