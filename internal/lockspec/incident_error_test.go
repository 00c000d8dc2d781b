package lockspec_test

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// failedRow is one call of Options.OnIncidentError.
type failedRow struct {
	lock, event string
	err         error
}

// incidentErrors returns o with OnIncidentError recording its calls.
func incidentErrors(o lockspec.Options, calls *[]failedRow) lockspec.Options {
	o.OnIncidentError = func(lock, event string, err error) {
		*calls = append(*calls, failedRow{lock: lock, event: event, err: err})
	}
	return o
}

// The row of an automatic break that cannot be appended is told to
// OnIncidentError (the lock, "break", the FS's error); the break stands
// and the acquire holds the lock. A row that is appended tells nothing.
func TestIncidentErrorOfABreak(t *testing.T) {
	for _, fails := range []bool{true, false} {
		e := newEstate(t, classes[0])
		m := locktest.NewMachine("host-a")
		deadLock(t, e, m)
		ffs := faultfs.New(e.fsys)
		if fails {
			ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "*.incidents.jsonl", Err: syscall.EROFS})
		}
		var calls []failedRow
		h, err := lockspec.Acquire(context.Background(), ffs, target, incidentErrors(fast(m.Spawn()), &calls))
		if err != nil {
			t.Fatalf("append fails %v: Acquire = %v; want the dead holder's lock broken and held", fails, err)
		}
		h.Release()
		switch {
		case !fails && len(calls) != 0:
			t.Errorf("OnIncidentError told %v; want nothing: the row was appended", calls)
		case fails && (len(calls) != 1 || calls[0].lock != lockspec.LockName(target) || calls[0].event != lockspec.EventBreak || !errors.Is(calls[0].err, syscall.EROFS)):
			t.Errorf("OnIncidentError told %v; want once, %s, break, EROFS", calls, lockspec.LockName(target))
		}
	}
}

// The row of a forced unlock that cannot be appended is told to
// OnIncidentError (the lock, "force", the FS's error); the unlock is done.
func TestIncidentErrorOfAForce(t *testing.T) {
	e := newEstate(t, classes[0])
	m, holder := holdLock(t, e)
	defer holder.Release()
	ffs := faultfs.New(e.fsys)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "*.incidents.jsonl", Err: syscall.ENOSPC})
	var calls []failedRow
	o := incidentErrors(fast(m.Spawn()), &calls)
	judged, err := lockspec.Inspect(ffs, target, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockspec.Unlock(context.Background(), ffs, target, judged, true, o); err != nil {
		t.Fatalf("Unlock --force = %v; want the lock removed", err)
	}
	if e.exists(lockspec.LockName(target)) {
		t.Error("the lock is still there")
	}
	if len(calls) != 1 || calls[0].lock != lockspec.LockName(target) || calls[0].event != lockspec.EventForce || !errors.Is(calls[0].err, syscall.ENOSPC) {
		t.Errorf("OnIncidentError told %v; want once, %s, force, ENOSPC", calls, lockspec.LockName(target))
	}
}
