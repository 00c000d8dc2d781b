package kernel

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestLiveHolderBlocksEachPolicy: a real child process holding the flock
// blocks mutation and monitor until their deadline, then each fails with
// a typed timeout naming the child, and one incident row is appended.
func TestLiveHolderBlocksEachPolicy(t *testing.T) {
	fsys, dir := newFS(t)
	c := startHolder(t, dir)
	const deadline = 300 * time.Millisecond
	for i, pol := range []policy.Policy{policy.Mutation, policy.Monitor} {
		r := acquireWithin(t, fsys, "f", Options{Policy: pol, Deadline: deadline, Agent: "waiter", Operation: "test"})
		te := asTimeout(t, r.err)
		if te.Waited < deadline || r.elapsed < deadline {
			t.Errorf("%v: waited %v (returned after %v), want at least the deadline %v", pol, te.Waited, r.elapsed, deadline)
		}
		if te.Policy != pol || te.Lock != "f.lock" || te.ErrorCode() != policy.CodeTimeout {
			t.Errorf("%v: timeout %+v, code %s", pol, te, te.ErrorCode())
		}
		if te.HolderErr != nil || te.Holder.PID != c.pid() || te.Holder.Agent != "child" || te.Holder.Operation != "hold" {
			t.Errorf("%v: holder %+v (%v), want the child %d", pol, te.Holder, te.HolderErr, c.pid())
		}
		if te.Incident != nil {
			t.Errorf("%v: incident not appended: %v", pol, te.Incident)
		}
		got, err := ReadIncidents(fsys, "f")
		if err != nil || len(got.Rows) != i+1 {
			t.Fatalf("%v: ReadIncidents = %+v, %v; want %d rows", pol, got, err, i+1)
		}
		row := got.Rows[i]
		if row.Holder == nil || row.Holder.PID != c.pid() || row.Waiter.PID != os.Getpid() || row.Policy != pol.String() || row.WaitedMS < deadline.Milliseconds() {
			t.Errorf("%v: row %+v", pol, row)
		}
	}
	c.release(t)
	r := acquireWithin(t, fsys, "f", Options{Policy: policy.SingleFlight})
	if r.err != nil {
		t.Fatalf("after the child's release: %v", r.err)
	}
}

// TestMonitorDefaultDeadline waits the real monitor deadline, 1 s, once.
func TestMonitorDefaultDeadline(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	r := acquireWithin(t, fsys, "f", Options{Policy: policy.Monitor})
	te := asTimeout(t, r.err)
	if te.Waited < time.Second || r.elapsed > 3*time.Second {
		t.Errorf("monitor waited %v (returned after %v), want 1 s", te.Waited, r.elapsed)
	}
}

func TestDefaultDeadlines(t *testing.T) {
	for pol, want := range map[policy.Policy]time.Duration{policy.Mutation: 5 * time.Second, policy.Monitor: time.Second, policy.SingleFlight: 0} {
		if got := (Options{Policy: pol}).deadline(); got != want {
			t.Errorf("deadline of %v = %v, want %v", pol, got, want)
		}
	}
	if got := (Options{Policy: policy.SingleFlight, Deadline: time.Minute}).deadline(); got != 0 {
		t.Errorf("single_flight with a Deadline waits %v, want 0", got)
	}
}

// TestSingleFlightAtOnce: single_flight finds the child's lock held and
// returns at once, typed, with no incident and no wait.
func TestSingleFlightAtOnce(t *testing.T) {
	fsys, dir := newFS(t)
	c := startHolder(t, dir)
	retried := 0
	r := acquireWithin(t, fsys, "f", Options{Policy: policy.SingleFlight, Deadline: time.Minute, onRetry: func(int) { retried++ }})
	var he *HeldError
	if !errors.As(r.err, &he) || !errors.Is(r.err, ErrHeld) || errors.Is(r.err, ErrTimeout) {
		t.Fatalf("err = %v, want a *HeldError", r.err)
	}
	if he.ErrorCode() != policy.CodeHeld || he.Holder.PID != c.pid() || retried != 0 {
		t.Errorf("held %+v, code %s, retried %d", he, he.ErrorCode(), retried)
	}
	if n := fsys.Calls(faultfs.OpOpenFile, "f.lock.incidents.jsonl"); n != 0 {
		t.Errorf("single_flight opened the incident log %d times", n)
	}
	if _, err := fsys.Stat("f.lock.incidents.jsonl"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("incident log: %v, want none", err)
	}
}

// TestKilledHolderFreesAtOnce: a holder killed with SIGKILL leaves its
// record (no release time) and the lock free: the next single_flight
// acquisition takes it at once, with no operator.
func TestKilledHolderFreesAtOnce(t *testing.T) {
	fsys, dir := newFS(t)
	c := startHolder(t, dir)
	key := lockKey(t, fsys, "f")
	c.kill(t)
	if rec := readLock(t, fsys, "f", layoutInLock); rec.PID != c.pid() || rec.ReleasedAt != "" {
		t.Errorf("the killed holder's record: %+v", rec)
	}
	r := acquireWithin(t, fsys, "f", Options{Policy: policy.SingleFlight})
	if r.err != nil {
		t.Fatalf("after SIGKILL: %v", r.err)
	}
	if rec := r.h.Record(); rec.PID != os.Getpid() {
		t.Errorf("record %+v, want ours", rec)
	}
	if lockKey(t, fsys, "f") != key {
		t.Error("the lock file was replaced")
	}
}

// TestReleasedChildRecordsRelease: a normal release writes the release
// time into the record.
func TestReleasedChildRecordsRelease(t *testing.T) {
	fsys, dir := newFS(t)
	c := startHolder(t, dir)
	c.release(t)
	if rec := readLock(t, fsys, "f", layoutInLock); rec.PID != c.pid() || rec.ReleasedAt == "" || rec.AcquiredAt == "" {
		t.Errorf("released record %+v", rec)
	}
}

// TestRetryTakesAFreedLock: the sleep between attempts is bounded by
// Retry: a lock freed after the first refused attempt is taken long
// before a far deadline.
func TestRetryTakesAFreedLock(t *testing.T) {
	fsys, _ := newFS(t)
	h := mustAcquire(t, fsys, "f", Options{})
	r := acquireWithin(t, fsys, "f", Options{Deadline: time.Hour, Retry: 5 * time.Millisecond, onRetry: func(n int) {
		if n == 1 {
			h.Release()
		}
	}})
	if r.err != nil || r.elapsed > watchdog/2 {
		t.Fatalf("Acquire after the release: %v after %v", r.err, r.elapsed)
	}
}

// TestRetryCutByDeadline: a long Retry does not carry the wait past the
// deadline.
func TestRetryCutByDeadline(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	r := acquireWithin(t, fsys, "f", Options{Deadline: 100 * time.Millisecond, Retry: time.Hour})
	asTimeout(t, r.err)
}

// TestContextEndsTheWait: a context that ends during the wait ends it,
// with the context's error.
func TestContextEndsTheWait(t *testing.T) {
	fsys, _ := newFS(t)
	mustAcquire(t, fsys, "f", Options{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Acquire(ctx, fsys, "f", Options{Deadline: time.Hour, Retry: time.Hour, onRetry: func(int) { cancel() }})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(watchdog):
		t.Fatal("Acquire did not end with its context")
	}
}

// TestStaleRecordIsNoReasonToDelete: a record naming a dead pid, with the
// kernel lock free, is taken over at once; nothing is removed or renamed,
// and the lock file is the same file.
func TestStaleRecordIsNoReasonToDelete(t *testing.T) {
	fsys, dir := newFS(t)
	c := startHolder(t, dir)
	c.kill(t) // its pid is dead now, and its record says it holds
	stale := Record{LockID: LockID("f"), PID: c.pid(), Hostname: hostname(), Policy: "mutation", AcquiredAt: "2020-01-01T00:00:00Z"}
	if err := writeFile(fsys, "f.lock", stale.encode()); err != nil {
		t.Fatal(err)
	}
	key := lockKey(t, fsys, "f")
	r := acquireWithin(t, fsys, "f", Options{Deadline: time.Minute})
	if r.err != nil || r.elapsed > watchdog/2 {
		t.Fatalf("Acquire over a stale record: %v after %v", r.err, r.elapsed)
	}
	if n := fsys.Calls(faultfs.OpRemove, "") + fsys.Calls(faultfs.OpRename, ""); n != 0 {
		t.Errorf("%d removes or renames", n)
	}
	if lockKey(t, fsys, "f") != key {
		t.Error("the lock file was replaced")
	}
}

func TestLabels(t *testing.T) {
	fsys, _ := newFS(t)
	for _, o := range []Options{{Agent: "/home/me"}, {Operation: "HOME=/root"}, {Operation: "pa dispatch open --title $(x)"}, {Agent: string(make([]byte, 65))}, {Agent: "a\nb"}} {
		_, err := Acquire(t.Context(), fsys, "f", o)
		var le *LabelError
		if !errors.As(err, &le) || le.ErrorCode() != policy.CodeInvalidLabel {
			t.Errorf("Acquire(%+v) = %v, want a *LabelError", o, err)
		}
	}
	if n := fsys.Calls(faultfs.OpOpenFile, ""); n != 0 {
		t.Errorf("a bad label opened %d files", n)
	}
	if _, err := Acquire(t.Context(), fsys, "f", Options{Policy: 9}); !errors.Is(err, policy.ErrUnknown) {
		t.Errorf("Policy(9): %v", err)
	}
	h, err := Acquire(t.Context(), fsys, "f", Options{Agent: "crow-2", Operation: "dispatch open"})
	if err != nil {
		t.Fatal(err)
	}
	h.Release()
}
