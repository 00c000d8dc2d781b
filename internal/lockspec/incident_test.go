package lockspec_test

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// incidentsP is the incident log of target's lock.
const incidentsP = "d/log.json.lock.incidents.jsonl"

// rows reads the incident log of target.
func rows(t *testing.T, e *estate) []lockspec.Incident {
	t.Helper()
	got, err := lockspec.ReadIncidents(e.fsys, target)
	if err != nil || got.Skipped != 0 {
		t.Fatalf("ReadIncidents: %+v, %v", got, err)
	}
	return got.Rows
}

// timedOut runs an acquire of target by a process of m on fsys that must
// time out, and returns its error.
func timedOut(t *testing.T, e *estate, o lockspec.Options) *lockspec.TimeoutError {
	t.Helper()
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, o)
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) {
		if h != nil {
			h.Release()
		}
		t.Fatalf("Acquire = %v, want a *TimeoutError", err)
	}
	return te
}

// TestIncidentTimeoutRow: a timeout appends one row naming the holder as
// judged, the waiter, the wait and what to do, in words that name no
// command; the lock is left as it was.
func TestIncidentTimeoutRow(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	defer holder.Release()
	lock := e.readRaw(t, lockP)
	o := fast(m.Spawn())
	o.Timeout, o.Agent, o.Operation, o.Policy = 20*time.Millisecond, "crow", "dispatch open", "mutation"
	te := timedOut(t, e, o)
	if te.Incident != nil {
		t.Fatalf("Incident = %v", te.Incident)
	}
	got := rows(t, e)
	if len(got) != 1 {
		t.Fatalf("%d rows, want 1", len(got))
	}
	r := got[0]
	if r.Kind != lockspec.IncidentKind || r.Event != lockspec.EventTimeout || r.LockID != lockspec.LockID(target) ||
		r.Policy != "mutation" || r.WaitedMS < 10 || r.Holder == nil || r.Holder.PID != te.Holder.PID ||
		r.Holder.State != "alive" || r.Holder.AcquiredAt != te.Holder.AcquiredAt || r.Waiter == nil ||
		r.Waiter.Agent != "crow" || r.Waiter.Operation != "dispatch open" || r.Waiter.WaitFrom == "" || r.By != nil {
		t.Errorf("row %+v holder %+v waiter %+v", r, r.Holder, r.Waiter)
	}
	contains(t, r.OperatorAction, "inspect pid", "stalled", "authority", "retry")
	if strings.Contains(r.OperatorAction, "pa ") || strings.Contains(r.OperatorAction, "/") {
		t.Errorf("operator_action names a command or a path: %q", r.OperatorAction)
	}
	if string(e.readRaw(t, lockP)) != string(lock) {
		t.Error("the timeout changed the lock")
	}
}

// heldBehindFaults holds target's lock in e and puts a faultfs over e's
// FS for the waiter, which it returns with the waiter's options (a 20 ms
// timeout).
func heldBehindFaults(t *testing.T, e *estate) (*faultfs.FS, lockspec.Options) {
	t.Helper()
	m, holder := holdLock(t, e)
	t.Cleanup(func() { holder.Release() })
	ffs := faultfs.New(e.fsys)
	e.fsys = ffs
	o := fast(m.Spawn())
	o.Timeout = 20 * time.Millisecond
	return ffs, o
}

// TestIncidentAppendFails: an append that fails leaves the same typed
// timeout, its error in Incident.
func TestIncidentAppendFails(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs, o := heldBehindFaults(t, e)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "*.incidents.jsonl", Err: syscall.EROFS})
	te := timedOut(t, e, o)
	if !errors.Is(te, lockspec.ErrTimeout) || !errors.Is(te.Incident, syscall.EROFS) {
		t.Errorf("timeout %v, Incident %v; want ErrTimeout and EROFS", te, te.Incident)
	}
	if e.exists(incidentsP) {
		t.Error("an incident log was written")
	}
}

// TestIncidentAppendStalls: an append that blocks does not hold the
// timeout past its bound: Incident is ErrIncidentStalled.
func TestIncidentAppendStalls(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs, o := heldBehindFaults(t, e)
	release := make(chan struct{})
	stop := time.AfterFunc(time.Minute, func() { close(release) }) // a bound for a wrong build, not an order
	defer func() {
		if stop.Stop() {
			close(release)
		}
	}()
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpWrite && strings.HasSuffix(ev.Name, ".incidents.jsonl") {
			<-release
		}
		return nil
	})
	o.IncidentWait = 20 * time.Millisecond
	start := time.Now()
	te := timedOut(t, e, o)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the timeout took %s", d)
	}
	if !errors.Is(te.Incident, lockspec.ErrIncidentStalled) {
		t.Errorf("Incident = %v, want ErrIncidentStalled", te.Incident)
	}
}

// TestIncidentBreakRow: the automatic break of a dead holder appends a
// row naming the dead holder, its evidence and who broke it.
func TestIncidentBreakRow(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	deadLock(t, e, m)
	breaker := m.Spawn()
	o := fast(breaker)
	o.Agent = "crow"
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	got := rows(t, e)
	if len(got) != 1 {
		t.Fatalf("%d rows, want 1", len(got))
	}
	r := got[0]
	if r.Event != lockspec.EventBreak || r.Holder == nil || r.Holder.State != "dead" || r.By == nil ||
		r.By.PID != breaker.PID() || r.By.Agent != "crow" || r.Waiter != nil {
		t.Errorf("row %+v holder %+v by %+v", r, r.Holder, r.By)
	}
}

// TestIncidentForceRow: a forced unlock appends a row naming the holder
// it removed and who forced it; the incident log stays.
func TestIncidentForceRow(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	defer holder.Release()
	op := m.Spawn()
	o := fast(op)
	judged, err := lockspec.Inspect(e.fsys, target, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockspec.Unlock(context.Background(), e.fsys, target, judged, true, o); err != nil {
		t.Fatal(err)
	}
	got := rows(t, e)
	if len(got) != 1 {
		t.Fatalf("%d rows, want 1", len(got))
	}
	r := got[0]
	if r.Event != lockspec.EventForce || r.Holder == nil || r.Holder.PID != judged.PID || r.Holder.State != "alive" ||
		r.By == nil || r.By.PID != op.PID() {
		t.Errorf("row %+v holder %+v by %+v", r, r.Holder, r.By)
	}
	contains(t, r.OperatorAction, "removed by force", "confirm")
}

// TestIncidentCap: a row past the cap is dropped, the log unchanged, and
// the next row written counts it.
func TestIncidentCap(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	defer holder.Release()
	o := fast(m.Spawn())
	o.Timeout = 5 * time.Millisecond
	timedOut(t, e, o)
	size := int64(len(e.readRaw(t, incidentsP)))
	lockspec.SetIncidentCap(&o, size+size/2)
	if te := timedOut(t, e, o); !errors.Is(te.Incident, lockspec.ErrIncidentsFull) {
		t.Fatalf("past the cap: Incident = %v, want ErrIncidentsFull", te.Incident)
	}
	if n := int64(len(e.readRaw(t, incidentsP))); n != size {
		t.Fatalf("a dropped row changed the log: %d -> %d bytes", size, n)
	}
	lockspec.SetIncidentCap(&o, 0)
	if te := timedOut(t, e, o); te.Incident != nil {
		t.Fatal(te.Incident)
	}
	got := rows(t, e)
	if len(got) != 2 || got[1].DroppedBefore < 1 {
		t.Errorf("%d rows, the last counting %d drops; want 2 rows, at least 1", len(got), got[len(got)-1].DroppedBefore)
	}
}

// TestIncidentHostileHolder: a holder whose record is far too long for a
// row still makes a row of at most MaxIncidentRow bytes.
func TestIncidentHostileHolder(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	e.writeRaw(t, lockP, lockJSON(4242, strings.Repeat("\x1b[2J\u2028", 400), true, "abababababababababababab", time.Now()))
	o := fast(m.Spawn())
	o.Timeout = 5 * time.Millisecond
	if te := timedOut(t, e, o); te.Incident != nil {
		t.Fatal(te.Incident)
	}
	data := e.readRaw(t, incidentsP)
	got := rows(t, e)
	if len(data) > lockspec.MaxIncidentRow || len(got) != 1 || got[0].Holder == nil || got[0].Holder.PID != 4242 {
		t.Errorf("%d bytes, rows %+v", len(data), got)
	}
}

// TestSweepLeavesIncidents: the sweep, a forced unlock and a release
// leave the incident log.
func TestSweepLeavesIncidents(t *testing.T) {
	e := newEstate(t, classes[0])
	e.writeRaw(t, incidentsP, []byte("{}\n"))
	m, holder := holdLock(t, e) // its acquire swept
	o := fast(m.Spawn())
	judged, err := lockspec.Inspect(e.fsys, target, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockspec.Unlock(context.Background(), e.fsys, target, judged, true, o); err != nil {
		t.Fatal(err)
	}
	holder.Release()
	if !strings.HasPrefix(string(e.readRaw(t, incidentsP)), "{}\n") {
		t.Error("the incident log was changed")
	}
}

// TestIncidentUnlockNoRow: an unlock without force of a dead holder's
// lock is no forced unlock: it appends no row.
func TestIncidentUnlockNoRow(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	deadLock(t, e, m)
	o := fast(m.Spawn())
	judged, err := lockspec.Inspect(e.fsys, target, o)
	if err != nil || judged.State != lockspec.StateDead {
		t.Fatalf("Inspect = %+v, %v; want a dead holder", judged, err)
	}
	if err := lockspec.Unlock(context.Background(), e.fsys, target, judged, false, o); err != nil {
		t.Fatal(err)
	}
	if e.exists(incidentsP) {
		t.Errorf("an unlock without force wrote %q", e.readRaw(t, incidentsP))
	}
}

// TestIncidentSingleFlightNone: a single_flight writer that finds the
// lock held records no incident: that is an ordinary result.
func TestIncidentSingleFlightNone(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	defer holder.Release()
	o := fast(m.Spawn())
	o.Timeout, o.Policy = lockspec.NoWait, "single_flight"
	if te := timedOut(t, e, o); te.Incident != nil {
		t.Errorf("Incident = %v, want nil", te.Incident)
	}
	if e.exists(incidentsP) {
		t.Errorf("a single_flight timeout wrote %q", e.readRaw(t, incidentsP))
	}
}

// A timeout on a lock that names no holder (an empty lock) says so in its
// row's operator_action: no pid to inspect (never "pid 0", which a script
// could signal), never broken by itself, removed only by a forced unlock.
func TestIncidentTimeoutOnALockWithNoHolder(t *testing.T) {
	e := newEstate(t, classes[0])
	e.writeRaw(t, lockP, nil)
	o := fast(locktest.NewMachine("host-a").Spawn())
	o.Timeout = 20 * time.Millisecond
	timedOut(t, e, o)
	got := rows(t, e)
	if len(got) != 1 {
		t.Fatalf("%d rows, want 1", len(got))
	}
	contains(t, got[0].OperatorAction, "names no holder", "never broken by itself", "forced unlock")
	if strings.Contains(got[0].OperatorAction, "pid 0") {
		t.Errorf("operator_action points at pid 0: %q", got[0].OperatorAction)
	}
}
