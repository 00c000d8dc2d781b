package dispatch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// racingOpen opens dispatch 1 of demo (on its board), then starts the open
// of dispatch 2 in a goroutine, as host, and returns once that open has
// committed its record (step commit:renamed): it holds the lock and has
// not written its board item. finish lets it go on (its board write, then
// its release) and waits until it has returned without an error; it may be
// called more than once, and the test's cleanup calls it.
func racingOpen(t *testing.T, e *estatetest.Estate, host locking.Host) (finish func()) {
	t.Helper()
	o := opts()
	o.Host = host
	if _, err := dispatch.Open(context.Background(), e.FS, "demo", "before", o); err != nil {
		t.Fatal(err)
	}
	committed, proceed, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	o.Timeout = time.Minute // the fence must not give up while it waits
	lockspec.SetOnStep(&o, func(s lockspec.Step) {
		if s == lockspec.StepCommitRenamed {
			close(committed)
			<-proceed
		}
	})
	go func() {
		_, err := dispatch.Open(context.Background(), e.FS, "demo", "racing", o)
		done <- err
	}()
	<-committed
	var once sync.Once
	finish = func() {
		once.Do(func() {
			close(proceed)
			if err := <-done; err != nil {
				t.Errorf("the racing open: %v", err)
			}
		})
	}
	t.Cleanup(finish)
	return finish
}

// lockOpens counts the opens of demo's lock on f.
func lockOpens(f *faultfs.FS) int {
	return f.Calls(faultfs.OpOpenFile, locking.LockName(estate.SpawnLogPath("demo")))
}

// A writer that committed its record before the check read the spawn-log,
// and wrote its board item and released the lock only once the check had
// read the board (the check's first read of the board closed): the check
// finds the lock free, reads the board again without waiting, and reports
// nothing.
func TestCheckReadsTheBoardAgainAfterARelease(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		m := locktest.NewMachine(locking.OSHost().Hostname())
		finish := racingOpen(t, e, m.Spawn())
		f := faultfs.New(e.FS)
		var once sync.Once
		f.After(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpClose && ev.Name == estate.BoardPath("demo") {
				once.Do(finish)
			}
			return nil
		})
		p, err := dispatch.Check(f, "demo", dispatch.CheckOptions{Lock: locking.Options{Host: m.Spawn()}, InFlightGrace: time.Minute})
		if err != nil || len(p) != 0 {
			t.Errorf("Check = %+v, %v; want no problem (dispatch 2 is on the board once its writer released)", p, err)
		}
		if n := lockOpens(f); n != 2 {
			t.Errorf("Check opened the lock %d times; want 2 (no wait for a free lock)", n)
		}
	})
}

// A writer alive on this host, or on another host, that still holds the
// lock with its record committed and its board item not yet written when
// the check looks at the lock again: the check waits for that hold, reads
// the board again once it is gone, and reports nothing. The writer goes on
// exactly at the check's first read of the lock while it waits (its third
// open of the lock).
func TestCheckWaitsForALiveWriter(t *testing.T) {
	for _, where := range []string{"this host", "another host"} {
		estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
			m := locktest.NewMachine(locking.OSHost().Hostname())
			checker := m.Spawn()
			if where == "another host" {
				checker = locktest.NewMachine("elsewhere").Spawn()
			}
			finish := racingOpen(t, e, m.Spawn())
			f := faultfs.New(e.FS)
			f.Before(func(ev faultfs.Event) error {
				if ev.Op == faultfs.OpOpenFile && ev.Name == locking.LockName(estate.SpawnLogPath("demo")) && lockOpens(f) == 3 {
					finish() // the third open: the first while waiting
				}
				return nil
			})
			p, err := dispatch.Check(f, "demo", dispatch.CheckOptions{Lock: locking.Options{Host: checker}, InFlightGrace: time.Minute})
			if err != nil || len(p) != 0 {
				t.Errorf("%s: Check = %+v, %v; want no problem (dispatch 2 is on the board once its writer released)", where, p, err)
			}
		})
	}
}

// A live writer that does not write its board item within the grace: its
// dispatch is reported once the grace has passed; with a negative grace at
// once, the lock read only once (by the lock-held check: no wait).
func TestCheckReportsALiveWriterPastTheGrace(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		m := locktest.NewMachine(locking.OSHost().Hostname())
		finish := racingOpen(t, e, m.Spawn())
		for _, grace := range []time.Duration{20 * time.Millisecond, -1} {
			f := faultfs.New(e.FS)
			p, err := checkWithin(t, 20*time.Second, func() ([]dispatch.Problem, error) {
				return dispatch.Check(f, "demo", dispatch.CheckOptions{Lock: locking.Options{Host: m.Spawn()}, InFlightGrace: grace})
			})
			if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindNotOnBoard || p[0].DispatchID != 2 {
				t.Errorf("grace %s: Check = %+v, %v; want dispatch 2 not on the board", grace, p, err)
			}
			if n := lockOpens(f); grace < 0 && n != 1 || grace > 0 && n < 3 {
				t.Errorf("grace %s: Check opened the lock %d times; want 1 with no wait, 3 or more with one", grace, n)
			}
		}
		finish()
		if p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{}); err != nil || len(p) != 0 {
			t.Errorf("Check once the writer is done = %+v, %v; want no problem", p, err)
		}
	})
}

// A holder that will not release the lock by itself (dead: it died between
// its commit and its board write) is not waited for: its dispatch is
// reported at once, even with a grace of a minute.
func TestCheckDoesNotWaitForADeadWriter(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		m := locktest.NewMachine(locking.OSHost().Hostname())
		writer := m.Spawn()
		racingOpen(t, e, writer)
		writer.Kill()
		f := faultfs.New(e.FS)
		p, err := checkWithin(t, 20*time.Second, func() ([]dispatch.Problem, error) {
			return dispatch.Check(f, "demo", dispatch.CheckOptions{Lock: locking.Options{Host: m.Spawn()}, InFlightGrace: time.Minute})
		})
		if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindNotOnBoard || p[0].DispatchID != 2 {
			t.Errorf("Check = %+v, %v; want dispatch 2 not on the board", p, err)
		}
		if n := lockOpens(f); n != 2 {
			t.Errorf("Check opened the lock %d times; want 2 (no wait for a dead holder)", n)
		}
	})
}

// checkWithin runs check and returns what it returns, failing the test at
// once if it has not returned within bound (a generous bound: a check that
// waits a grace it should not, or without end).
func checkWithin(t *testing.T, bound time.Duration, check func() ([]dispatch.Problem, error)) ([]dispatch.Problem, error) {
	t.Helper()
	type result struct {
		p   []dispatch.Problem
		err error
	}
	got := make(chan result, 1)
	go func() {
		p, err := check()
		got <- result{p, err}
	}()
	select {
	case r := <-got:
		return r.p, r.err
	case <-time.After(bound):
		t.Fatalf("Check still running after %s; want it to return without waiting (out) the grace", bound)
	}
	return nil, nil
}

// A writer that released while the check waited, and another live hold
// taken at once after it (one that stays past the check): the hold the
// check waited for is gone, so it reads the board again at once (the lock
// opened 3 times) and reports nothing, instead of waiting out the grace
// for the other hold.
func TestCheckStopsWaitingWhenTheHoldChanges(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		m := locktest.NewMachine(locking.OSHost().Hostname())
		finish := racingOpen(t, e, m.Spawn())
		var next *locking.Hold
		f := faultfs.New(e.FS)
		f.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpOpenFile && ev.Name == locking.LockName(estate.SpawnLogPath("demo")) && lockOpens(f) == 3 && next == nil {
				finish()
				var err error
				if next, err = locking.Acquire(context.Background(), e.FS, estate.SpawnLogPath("demo"), locking.Options{Host: m.Spawn()}); err != nil {
					t.Errorf("the next hold: %v", err)
				}
			}
			return nil
		})
		p, err := dispatch.Check(f, "demo", dispatch.CheckOptions{Lock: locking.Options{Host: m.Spawn()}, InFlightGrace: 3 * time.Second})
		if err != nil || len(p) != 0 {
			t.Errorf("Check = %+v, %v; want no problem", p, err)
		}
		if n := lockOpens(f); n != 3 {
			t.Errorf("Check opened the lock %d times; want 3 (no wait once the hold changed)", n)
		}
		if next != nil {
			if err := next.Release(); err != nil {
				t.Error(err)
			}
		}
	})
}

// A writer alive in another pid namespace of this host (a container
// sharing the estate) whose lock claims no kernel lock (a volume without
// them): nothing proves it dead (its pid means nothing here), so, like a
// holder on another host, it may still be between its commit and its
// board write, and release. The check waits for that hold, reads the board
// again once it is gone, and reports nothing. Here the hold is the lock
// record such a writer leaves; at the check's first read of the lock while
// it waits (its third open of the lock), the writer's board item lands and
// the lock goes.
func TestCheckWaitsForAWriterInAnotherPIDNamespace(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		boardName := filepath.Join(e.Dir, filepath.FromSlash(estate.BoardPath("demo")))
		var boards [][]byte // the board after dispatch 1, after dispatch 2
		for _, title := range []string{"before", "racing"} {
			if _, err := dispatch.Open(context.Background(), e.FS, "demo", title, opts()); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(boardName)
			if err != nil {
				t.Fatal(err)
			}
			boards = append(boards, b)
		}
		// The board as it was before the racing writer's board write.
		if err := os.WriteFile(boardName, boards[0], 0o644); err != nil {
			t.Fatal(err)
		}
		ns := uint64(1)
		if ih, ok := locking.OSHost().(lockspec.IdentityHost); ok {
			ns += ih.Self().PIDNamespace // another pid namespace than this one
		}
		lock := locking.LockName(estate.SpawnLogPath("demo"))
		estatetest.WriteFile(t, e.Dir, lock, fmt.Sprintf(`{"pid":1,"hostname":%q,"token":"%s","pidNamespace":%d,"acquiredAt":"%s"}`,
			locking.OSHost().Hostname(), strings.Repeat("ab", 12), ns, time.Now().UTC().Format("2006-01-02T15:04:05.000Z")))
		if h, err := locking.Inspect(e.FS, estate.SpawnLogPath("demo"), locking.Options{}); err != nil || h.State != locking.StateOtherNamespace {
			t.Fatalf("the lock: %+v, %v; want a holder in another pid namespace", h, err)
		}
		f := faultfs.New(e.FS)
		f.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpOpenFile && ev.Name == lock && lockOpens(f) == 3 {
				// The writer's board write, then its release.
				if err := os.WriteFile(boardName, boards[1], 0o644); err != nil {
					t.Error(err)
				}
				if err := os.Remove(filepath.Join(e.Dir, filepath.FromSlash(lock))); err != nil {
					t.Error(err)
				}
			}
			return nil
		})
		p, err := checkWithin(t, 20*time.Second, func() ([]dispatch.Problem, error) {
			return dispatch.Check(f, "demo", dispatch.CheckOptions{InFlightGrace: time.Minute})
		})
		if err != nil || len(p) != 0 {
			t.Errorf("Check = %+v, %v; want no problem (dispatch 2 is on the board once its writer released)", p, err)
		}
		if n := lockOpens(f); n != 3 {
			t.Errorf("Check opened the lock %d times; want 3 (a wait, until the hold was gone)", n)
		}
	})
}
