package kernel

import (
	"errors"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/incidentlog"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

const incidents = "f.lock.incidents.jsonl"

// TestIncidentWithoutTheLock: the timeout's row is appended with one
// O_APPEND write to its own file while the lock is held by another, the
// lock file untouched by the waiter after its open.
func TestIncidentWithoutTheLock(t *testing.T) {
	fsys, _ := newFS(t)
	h := mustAcquire(t, fsys, "f", Options{Agent: "holder", Operation: "board repair"})
	var flags []int
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpOpenFile && ev.Name == incidents {
			flags = append(flags, ev.Flag)
		}
		return nil
	})
	before := fsys.Calls(faultfs.OpWrite, "f.lock")
	te := asTimeout(t, acquireWithin(t, fsys, "f", Options{Deadline: 20 * time.Millisecond, Agent: "waiter"}).err)
	if te.Incident != nil {
		t.Fatalf("incident: %v", te.Incident)
	}
	if len(flags) != 1 || flags[0]&incidentlog.AppendFlags != incidentlog.AppendFlags {
		t.Errorf("incident log opened with %v, want one open with O_APPEND", flags)
	}
	if n := fsys.Calls(faultfs.OpWrite, incidents); n != 1 {
		t.Errorf("%d writes to the incident log, want 1", n)
	}
	if n := fsys.Calls(faultfs.OpWrite, "f.lock") - before; n != 0 {
		t.Errorf("the waiter wrote the lock file %d times", n)
	}
	got, err := ReadIncidents(fsys, "f")
	if err != nil || len(got.Rows) != 1 || got.Skipped != 0 {
		t.Fatalf("ReadIncidents: %+v, %v", got, err)
	}
	row := got.Rows[0]
	if row.Kind != IncidentKind || row.LockID != LockID("f") || row.HolderState != "recorded" || row.Holder.Agent != "holder" ||
		row.Holder.AcquiredAt != h.Record().AcquiredAt || row.Waiter.Agent != "waiter" || row.Waiter.WaitFrom == "" {
		t.Errorf("row %+v", row)
	}
	for _, want := range []string{"inspect pid", "stalled", "authority", "retry under the mutation policy", "Never delete the lock file"} {
		if !strings.Contains(row.OperatorAction, want) {
			t.Errorf("operator_action %q lacks %q", row.OperatorAction, want)
		}
	}
	if strings.Contains(got.Rows[0].OperatorAction, "/") {
		t.Errorf("operator_action holds a path: %q", row.OperatorAction)
	}
}

// TestIncidentAppendFails: a failed append is reported in the timeout,
// which is returned all the same.
func TestIncidentAppendFails(t *testing.T) {
	for _, op := range []faultfs.Op{faultfs.OpOpenFile, faultfs.OpWrite} {
		fsys, _ := newFS(t)
		mustAcquire(t, fsys, "f", Options{})
		fsys.Fail(faultfs.Rule{Op: op, Match: incidents, Err: syscall.ENOSPC})
		r := acquireWithin(t, fsys, "f", Options{Deadline: 20 * time.Millisecond})
		te := asTimeout(t, r.err)
		if !errors.Is(te.Incident, syscall.ENOSPC) {
			t.Errorf("%v: Incident = %v, want ENOSPC", op, te.Incident)
		}
	}
}

// TestIncidentAppendStalls: an append that blocks (its open held by a
// hook) does not delay the timeout past IncidentWait; the row lands once
// the append goes on.
func TestIncidentAppendStalls(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	stall, closed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpOpenFile && ev.Name == incidents {
			<-stall
		}
		return nil
	})
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpClose && ev.Name == incidents {
			once.Do(func() { close(closed) })
		}
		return nil
	})
	const deadline, wait = 20 * time.Millisecond, 30 * time.Millisecond
	r := acquireWithin(t, fsys, "f", Options{Deadline: deadline, IncidentWait: wait})
	close(stall)
	te := asTimeout(t, r.err)
	if !errors.Is(te.Incident, ErrIncidentStalled) {
		t.Errorf("Incident = %v, want ErrIncidentStalled", te.Incident)
	}
	select {
	case <-closed:
	case <-time.After(watchdog):
		t.Fatal("the stalled append never ended")
	}
	if got, err := ReadIncidents(fsys, "f"); err != nil || len(got.Rows) != 1 {
		t.Errorf("after the stall: %+v, %v", got, err)
	}
}

// TestIncidentCap: a row that would pass the cap is dropped (the file
// unchanged), and the next row written counts the drop.
func TestIncidentCap(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	dropped.Reset()
	o := Options{Deadline: time.Millisecond}
	if te := asTimeout(t, acquireWithin(t, fsys, "f", o).err); te.Incident != nil {
		t.Fatalf("first row: %v", te.Incident)
	}
	fi, _ := fsys.Stat(incidents)
	o.incidentCap = fi.Size() + fi.Size()/2 // room for half a row more
	if te := asTimeout(t, acquireWithin(t, fsys, "f", o).err); !errors.Is(te.Incident, ErrIncidentsFull) {
		t.Fatalf("second row: %v, want ErrIncidentsFull (file %d bytes)", te.Incident, fi.Size())
	}
	if fi2, _ := fsys.Stat(incidents); fi2.Size() != fi.Size() {
		t.Errorf("a dropped row changed the file: %d -> %d bytes", fi.Size(), fi2.Size())
	}
	o.incidentCap = 0
	if te := asTimeout(t, acquireWithin(t, fsys, "f", o).err); te.Incident != nil {
		t.Fatalf("third row: %v", te.Incident)
	}
	got, _ := ReadIncidents(fsys, "f")
	if len(got.Rows) != 2 || got.Rows[0].DroppedBefore != 0 || got.Rows[1].DroppedBefore != 1 {
		t.Errorf("rows %+v, want the second to count one drop", got.Rows)
	}
}

// TestIncidentRowBounded: a hostile holder record (long, escaped many
// times over) still makes a row of at most MaxIncidentRow bytes, read back.
func TestIncidentRowBounded(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	hostile := `{"lock_id":"` + strings.Repeat(`\u0007`, 100) + `","pid":1,"hostname":"` + strings.Repeat(`\u001b`, 120) + `","agent":"` + strings.Repeat(`\u0000`, 120) + `","operation":"` + strings.Repeat(`<`, 120) + `","acquiredAt":"` + strings.Repeat(`&`, 120) + `"}`
	if err := writeFile(fsys, "f.lock", []byte(hostile)); err != nil {
		t.Fatal(err)
	}
	te := asTimeout(t, acquireWithin(t, fsys, "f", Options{Deadline: time.Millisecond}).err)
	if te.Incident != nil || te.HolderErr != nil {
		t.Fatalf("incident %v, holder %v", te.Incident, te.HolderErr)
	}
	data, _, _ := readAllOf(t, fsys, incidents)
	if len(data) > MaxIncidentRow {
		t.Errorf("row of %d bytes", len(data))
	}
	got, _ := ReadIncidents(fsys, "f")
	if len(got.Rows) != 1 || got.Rows[0].Holder != nil || got.Rows[0].HolderState != "record too long for a row" {
		t.Errorf("rows %+v", got)
	}
}
