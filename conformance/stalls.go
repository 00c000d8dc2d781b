package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// token24 is a 24-hex attempt token for names made by hand.
const token24 = "0123456789abcdef01234567"

// R11: a breaker (a real process) stalled after its claim, past every
// window (the others' timeout and the stale window, shortened; the pause
// measured by the breaker): other writers time out naming the dead holder,
// unlock without --force waits its busy-wait and refuses naming the
// claim's owner, board check reports the lock past its stale window and
// breaks nothing; when the breaker goes on it finishes alone.
func stalledBreakerBlocksOthers(t *testing.T, s *site) {
	dead := s.deadPID(t)
	lock := lockJSON(dead, s.hostname(), true, "deaddeaddeaddeaddeaddead", time.Now().Add(-time.Hour))
	s.writeRaw(t, lockName, lock)
	b := s.start(t, "breaker", childSpec{Role: roleWrite, Title: "stalled", Pause: []stepAt{{Step: lockspec.StepBreakClaimed}}})
	b.paused(t, lockspec.StepBreakClaimed)
	pausedAt := time.Now()

	o := short(s.me())
	err := s.write("other", o)
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != locking.StateDead || te.Holder.PID != dead {
		t.Fatalf("another writer: %v; want a timeout naming the dead holder (pid %d)", err, dead)
	}
	held, err := locking.Inspect(s.fs, logName, o)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = locking.Unlock(context.Background(), s.fs, logName, held, false, o)
	var be *locking.BusyError
	if !errors.As(err, &be) || be.Claim.PID != b.pid() {
		t.Fatalf("unlock: %v; want a *BusyError naming the breaker (pid %d)", err, b.pid())
	}
	if waited := time.Since(start); waited < o.UnlockBusyWait {
		t.Errorf("unlock gave up after %v; want its busy-wait (%v)", waited, o.UnlockBusyWait)
	}
	if probs := s.lockHeld(t, dispatch.CheckOptions{StaleWindow: stallStale}); len(probs) != 1 || probs[0].Holder.PID != dead {
		t.Fatalf("board check: %+v; want the dead holder's lock reported", probs)
	}
	outlastWindows(pausedAt)
	if !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatal("the dead lock changed while the stalled breaker held its claim")
	}
	b.resume(t)
	b.succeeded(t)
	pausedPastWindows(t, b, lockspec.StepBreakClaimed)
	s.wantTitles(t, "stalled")
	s.onlyLog(t)
}

// movedBy returns the broken names in the agent's folder owned by pid.
func (s *site) movedBy(t *testing.T, pid int) []string {
	t.Helper()
	var out []string
	for _, n := range s.ls(t) {
		if strings.HasPrefix(n, logBase+".lock.broken-"+lockspec.HostHash(s.hostname())+"-"+fmt.Sprint(pid)+"-") {
			out = append(out, agentDir+"/"+n)
		}
	}
	return out
}

// wantOps fails unless ops (a child's reported calls) are exactly want,
// each "OP NAME..." followed by its result, which is not compared.
func wantOps(t *testing.T, who string, ops []string, want ...string) {
	t.Helper()
	ok := len(ops) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(ops[i], want[i]+" ")
	}
	if !ok {
		t.Fatalf("%s made %q; want exactly %q", who, ops, want)
	}
}

// movedLock is a moved lock as its owner will remove it: its name, and
// for a directory lock its one marker.
type movedLock struct{ name, marker string }

// removalOf reads the moved lock name, before its owner removes it.
func (s *site) removalOf(t *testing.T, name string) movedLock {
	t.Helper()
	fi, err := s.raw.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.IsDir() {
		return movedLock{name: name}
	}
	ents, err := s.raw.ReadDir(name)
	if err != nil || len(ents) != 1 {
		t.Fatalf("the moved directory lock %s holds %v (%v); want one marker", name, ents, err)
	}
	return movedLock{name: name, marker: ents[0].Name()}
}

// wantRemoval fails unless ops (a child's reported calls) are exactly the
// removal of m as its owner makes it: the name itself for a file lock;
// for a directory lock its marker moved out beside the lock to a broken
// name of the same owner's, the directory removed, then that name removed
// (lockspec's removeMoved), never anything else.
func wantRemoval(t *testing.T, who string, ops []string, m movedLock) {
	t.Helper()
	if m.marker == "" {
		wantOps(t, who, ops, "remove "+m.name)
		return
	}
	if len(ops) == 3 {
		// "rename MARKER ASIDE ok": ASIDE a broken name of the same owner.
		f := strings.Fields(ops[0])
		owner := m.name[:strings.LastIndex(m.name, "-")+1]
		if len(f) >= 3 && strings.HasPrefix(f[2], owner) {
			wantOps(t, who, ops, "rename "+path.Join(m.name, m.marker)+" "+f[2], "remove "+m.name, "remove "+f[2])
			return
		}
	}
	t.Fatalf("%s made %q; want %s's marker moved out to a broken name of its owner's, the directory removed, then that name", who, ops, m.name)
}

// withoutOwnPending drops the ops on pid's own pending and probe names: a
// writer's first pending file on a device is linked to its probe name,
// once, to learn whether the kernel lock is shared by hard links
// (locking's linkedKernelLock), between its sweep and acquire:pending.
func withoutOwnPending(ops []string, host string, pid int) []string {
	suffix := host + "-" + strconv.Itoa(pid) + "-"
	own := func(name string) bool {
		return strings.Contains(name, ".pending-"+suffix) || strings.Contains(name, ".probe-"+suffix)
	}
	var out []string
	for _, op := range ops {
		// "OP NAME [NEWNAME] RESULT...": link and rename name two files.
		words := strings.Fields(op)
		mine := len(words) >= 3 && own(words[1])
		if mine && (words[0] == "link" || words[0] == "rename") {
			mine = own(words[2])
		}
		if !mine {
			out = append(out, op)
		}
	}
	return out
}

// R15: a releaser (a real process) stalled past every window after moving
// its lock: the pause outlasts the others' timeout and the stale window
// (both shortened, measured by the releaser). Meanwhile others acquire,
// commit and release with that timeout; board check with that stale
// window finds no lock under the name, and later reports the lock a third
// writer holds once it is past the window, while a writer with the short
// timeout times out naming it. The releaser's moved lock stays where it
// is. When it goes on, it removes only its own moved file, the holder's
// lock stays byte for byte, and every record survives.
func stalledReleaser(t *testing.T, s *site) {
	r := s.start(t, "releaser", childSpec{Role: roleWrite, Title: "releaser", Report: true, Pause: []stepAt{{Step: lockspec.StepReleaseRenamed}}})
	r.paused(t, lockspec.StepReleaseRenamed)
	pausedAt := time.Now()
	moved := s.movedBy(t, r.pid())
	if len(moved) != 1 || s.exists(lockName) {
		t.Fatalf("after release:renamed the folder holds %q; want the releaser's moved lock and no lock", s.ls(t))
	}
	movedBytes := s.readRaw(t, moved[0])
	for _, w := range []string{"w1", "w2"} {
		s.mustWrite(t, w, short(s.me()))
	}
	if probs := s.lockHeld(t, dispatch.CheckOptions{StaleWindow: stallStale}); len(probs) != 0 {
		t.Fatalf("board check: %+v; want no lock held (no lock under the name)", probs)
	}
	gate := newGate(lockspec.StepHoldRead)
	o := patient(s.me())
	lockspec.SetOnStep(&o, gate.at)
	done := make(chan error, 1)
	go func() { done <- s.write("w3", o) }()
	gate.await(t, "w3", done)
	s.reportedPastStale(t, s.myPID())
	outlastWindows(pausedAt)
	if !s.exists(moved[0]) || !bytes.Equal(s.readRaw(t, moved[0]), movedBytes) {
		t.Fatalf("the releaser's moved lock %s was touched while it was paused", moved[0])
	}
	lock := s.readRaw(t, lockName)
	removal := s.removalOf(t, moved[0])
	mark := len(r.said)
	r.resume(t)
	r.succeeded(t)
	pausedPastWindows(t, r, lockspec.StepReleaseRenamed)
	wantRemoval(t, "the releaser, once it went on,", r.ops(mark), removal)
	if !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatal("the holder's lock changed when the stalled releaser went on")
	}
	gate.open()
	if err := <-done; err != nil {
		t.Fatalf("w3: %v", err)
	}
	s.wantTitles(t, "releaser", "w1", "w2", "w3")
	s.onlyLog(t)
}

// R16: a releaser (a real process) stalled after moving its lock, past
// every window (the others' timeout and the stale window, shortened,
// measured by the releaser), while others acquire, commit and release with
// that timeout, resumes while another holder is between its fence and its
// rename (board check with the short stale window reports that holder's
// lock meanwhile, and a writer with the short timeout times out naming
// it). It removes only its own moved file and leaves the holder's lock in
// place (bytes and file); the holder's commit lands, and a third writer
// commits after it.
func releaserInFenceWindow(t *testing.T, s *site) {
	r := s.start(t, "releaser", childSpec{Role: roleWrite, Title: "releaser", Report: true, Pause: []stepAt{{Step: lockspec.StepReleaseRenamed}}})
	r.paused(t, lockspec.StepReleaseRenamed)
	pausedAt := time.Now()
	moved := s.movedBy(t, r.pid())
	if len(moved) != 1 {
		t.Fatalf("the releaser's moved lock: %q", moved)
	}
	for _, w := range []string{"w1", "w2"} {
		s.mustWrite(t, w, short(s.me()))
	}
	if probs := s.lockHeld(t, dispatch.CheckOptions{StaleWindow: stallStale}); len(probs) != 0 {
		t.Fatalf("board check: %+v; want no lock held (no lock under the name)", probs)
	}
	gate := newGate(lockspec.StepCommitFenced)
	o := patient(s.me())
	lockspec.SetOnStep(&o, gate.at)
	done := make(chan error, 1)
	go func() { done <- s.write("holder", o) }()
	gate.await(t, "the holder", done)
	s.reportedPastStale(t, s.myPID())
	outlastWindows(pausedAt)
	lock := s.readRaw(t, lockName)
	fi, err := os.Stat(s.path(lockName))
	if err != nil {
		t.Fatal(err)
	}
	removal := s.removalOf(t, moved[0])
	mark := len(r.said)
	r.resume(t)
	r.succeeded(t)
	pausedPastWindows(t, r, lockspec.StepReleaseRenamed)
	wantRemoval(t, "the releaser, once it went on,", r.ops(mark), removal)
	fi2, err := os.Stat(s.path(lockName))
	if err != nil || !os.SameFile(fi, fi2) || !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatalf("the holder's lock was moved or changed (%v)", err)
	}
	gate.open()
	if err := <-done; err != nil {
		t.Fatalf("the holder: %v", err)
	}
	s.mustWrite(t, "third", short(s.me()))
	s.wantTitles(t, "releaser", "w1", "w2", "holder", "third")
	s.before(t, "holder", "third")
	s.onlyLog(t)
}

// R17: a sweeper (a real process) stalled between its judgement and its
// unlink, past every window (the others' timeout and the stale window,
// shortened, measured by the sweeper): meanwhile a writer with the short
// timeout goes through (its own sweep clears the dead leftover) and
// another holds the lock, which board check with the short stale window
// reports while a writer with the short timeout times out naming it. When
// the sweeper goes on it removes only the dead owner's leftover it judged
// (a unique name nothing re-creates), and the live owner's leftover and
// the live lock stay; every record survives.
func stalledSweeper(t *testing.T, s *site) {
	host := lockspec.HostHash(s.hostname())
	deadLeft := fmt.Sprintf("%s.tmp-%s-%d-%s", logName, host, s.deadPID(t), token24)
	liveLeft := fmt.Sprintf("%s.pending-%s-%d-%s", lockName, host, s.livePID(t), token24)
	s.writeRaw(t, deadLeft, []byte("{}"))
	s.writeRaw(t, liveLeft, lockJSON(1, s.hostname(), true, token24, time.Now()))
	// The spawn-log is there: the temp files of a missing one are kept by
	// the sweep for the spawn-log's restore (docs/spawn-log-lock.md, "A
	// power cut").
	s.writeRaw(t, logName, []byte(`{"version":1,"nextId":1,"records":[]}`))
	sw := s.start(t, "sweeper", childSpec{Role: roleWrite, Title: "sweeper", Report: true, Pause: []stepAt{{Step: lockspec.StepSweepJudged}}})
	sw.paused(t, lockspec.StepSweepJudged)
	pausedAt := time.Now()

	s.mustWrite(t, "w1", short(s.me()))
	gate := newGate(lockspec.StepHoldRead)
	o := patient(s.me())
	lockspec.SetOnStep(&o, gate.at)
	done := make(chan error, 1)
	go func() { done <- s.write("w2", o) }()
	gate.await(t, "w2", done)
	s.reportedPastStale(t, s.myPID())
	outlastWindows(pausedAt)
	lock := s.readRaw(t, lockName)
	mark := len(sw.said)
	sw.resume(t)
	sw.await(t, "step "+string(lockspec.StepAcquirePending)) // its sweep is over
	pausedPastWindows(t, sw, lockspec.StepSweepJudged)
	// The leftover is moved to a broken name of the sweeper's own while
	// it holds the leftover's kernel lock, then removed (locking's
	// removeLeftover); without kernel locks it is removed where it is.
	ops := withoutOwnPending(sw.ops(mark), host, sw.pid())
	if len(ops) == 2 {
		moved := strings.Fields(ops[0])
		if len(moved) < 3 || !strings.Contains(moved[2], ".lock.broken-"+host+"-"+strconv.Itoa(sw.pid())+"-") {
			t.Fatalf("the sweeper, once it went on, made %q; want the leftover moved to a broken name of its own, then removed", ops)
		}
		wantOps(t, "the sweeper, once it went on,", ops, "rename "+deadLeft+" "+moved[2], "remove "+moved[2])
	} else {
		wantOps(t, "the sweeper, once it went on,", ops, "remove "+deadLeft)
	}
	if !s.exists(liveLeft) || !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatalf("the folder holds %q; the live owner's leftover and the live lock must stay as they were", s.ls(t))
	}
	gate.open()
	if err := <-done; err != nil {
		t.Fatalf("w2: %v", err)
	}
	sw.succeeded(t)
	s.wantTitles(t, "w1", "w2", "sweeper")
	if got := s.ls(t); len(got) != 2 || got[0] != logBase || agentDir+"/"+got[1] != liveLeft {
		t.Fatalf("the folder holds %q; want the spawn-log and the live owner's leftover", got)
	}
}
