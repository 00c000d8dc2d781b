package conformance

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// R50: a live holder in another pid namespace of this host (a container
// sharing the volume, same hostname) is never broken: its pid means
// nothing here, and it holds the kernel lock of its lock. A writer of this
// namespace that does not wait fails naming it alive by its kernel lock,
// its sweep leaves the holder's temp file, and the holder's commit lands.
func otherNamespaceHolderKept(t *testing.T, s *site) {
	s.mustWrite(t, "pre", fast(s.me()))
	h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Namespace: true,
		Pause: []stepAt{{Step: lockspec.StepCommitTempWritten}}})
	h.paused(t, lockspec.StepCommitTempWritten)
	lock := s.readRaw(t, lockName)
	temps := s.named(t, "tmp")
	if len(temps) != 1 {
		t.Fatalf("the holder's temp files: %q; want one", temps)
	}

	// Where the volume keeps a kernel lock per name (ntfs-3g) the lock
	// claims none, and the holder is held as one of another namespace.
	state, evidence := locking.StateAlive, "holds the lock's kernel lock"
	if !bytes.Contains(lock, []byte(`"kernelLock"`)) {
		state, evidence = locking.StateOtherNamespace, ""
	}
	err := s.write("at-once", noWait(s.me()))
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != state || te.Holder.Evidence != evidence {
		t.Fatalf("a writer of this namespace: %v; want a timeout naming the holder %v (%q)", err, state, evidence)
	}
	if !bytes.Equal(s.readRaw(t, lockName), lock) || !s.exists(temps[0]) {
		t.Fatalf("the holder's lock or temp file was touched: the folder holds %q", s.ls(t))
	}
	h.resume(t)
	h.saidDone(t)
	s.wantTitles(t, "pre", "holder")
	s.onlyLog(t)
}

// R50: the pending file of a live waiter in another pid namespace is never
// swept by a writer of this one, though its pid is dead here.
func otherNamespacePendingKept(t *testing.T, s *site) {
	held, err := locking.Acquire(context.Background(), s.fs, logName, fast(s.me()))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	w := s.start(t, "waiter", childSpec{Role: roleWrite, Title: "waiter", Namespace: true,
		Pause: []stepAt{{Step: lockspec.StepAcquirePending}}})
	w.paused(t, lockspec.StepAcquirePending)
	pending := s.named(t, "pending")
	if len(pending) != 1 {
		t.Fatalf("the waiter's pending files: %q; want one", pending)
	}
	var te *locking.TimeoutError
	if err := s.write("sweeper", noWait(s.me())); !errors.As(err, &te) {
		t.Fatalf("a writer while the lock is held: %v; want a timeout", err)
	}
	if !s.exists(pending[0]) {
		t.Fatalf("the live waiter's pending file %s was swept; the folder holds %q", pending[0], s.ls(t))
	}
	w.resume(t)
	if err := held.Release(); err != nil {
		t.Fatal(err)
	}
	w.saidDone(t)
	s.wantTitles(t, "waiter")
	s.onlyLog(t)
}

// R50: the claim of a live breaker in another pid namespace keeps a breaker
// of this one off the dead lock they both judged (row R09's rule across
// namespaces): the claim is never removed although its pid is dead here.
func otherNamespaceClaimKept(t *testing.T, s *site) {
	dead := lockJSON(s.deadPID(t), s.hostname(), true, "deaddeaddeaddeaddeaddead", time.Now())
	s.writeRaw(t, lockName, dead)
	b := s.start(t, "breaker", childSpec{Role: roleWrite, Title: "breaker", Namespace: true,
		Pause: []stepAt{{Step: lockspec.StepBreakClaimed}}})
	b.paused(t, lockspec.StepBreakClaimed)
	claims := s.named(t, "claim")
	if len(claims) != 1 {
		t.Fatalf("the breaker's claims: %q; want one", claims)
	}
	err := s.write("second", noWait(s.me()))
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Claim == nil {
		t.Fatalf("a second breaker: %v; want a timeout naming the other breaker's claim", err)
	}
	if !s.exists(claims[0]) || !bytes.Equal(s.readRaw(t, lockName), dead) {
		t.Fatalf("the live breaker's claim or the lock it judged was touched: the folder holds %q", s.ls(t))
	}
	b.resume(t)
	b.saidDone(t)
	s.wantTitles(t, "breaker")
	s.onlyLog(t)
}

// R51: a holder of another pid namespace that died is broken at once: its
// kernel lock is free, and that proves it whatever its pid says here.
// Where the volume keeps a kernel lock per name (ntfs-3g) the lock claims
// none, so nothing proves the death: it is held as one of another
// namespace, a block that unlock --force clears.
func otherNamespaceDeadHolderBroken(t *testing.T, s *site) {
	s.mustWrite(t, "pre", fast(s.me()))
	h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Namespace: true,
		Kill: []lockspec.Step{lockspec.StepHoldRead}})
	h.saidKill(t, lockspec.StepHoldRead)
	if !bytes.Contains(s.readRaw(t, lockName), []byte(`"kernelLock"`)) {
		got, err := locking.Inspect(s.fs, logName, fast(s.me()))
		if err != nil || got.State != locking.StateOtherNamespace {
			t.Fatalf("Inspect = %+v, %v; want it held, of another pid namespace", got, err)
		}
		if err := locking.Unlock(context.Background(), s.fs, logName, got, true, fast(s.me())); err != nil {
			t.Fatalf("unlock --force: %v", err)
		}
		s.mustWrite(t, "after", noWait(s.me()))
		s.wantTitles(t, "pre", "after")
		s.onlyLog(t)
		return
	}
	got, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil || got.State != locking.StateDead {
		t.Fatalf("Inspect = %+v, %v; want the holder dead", got, err)
	}
	contains(t, got.Evidence, "another pid namespace", "kernel lock")
	s.mustWrite(t, "after", noWait(s.me()))
	s.wantTitles(t, "pre", "after")
	s.onlyLog(t)
}

// R50: eight pa dispatch open at once, four in this pid namespace and
// four each in a namespace of its own, on one estate: each commits its
// record once, none breaks another's live lock or sweeps another's
// pending or temp files, and nothing is left (5 trials).
func opensOfTwoNamespaces(t *testing.T, s *site) {
	needUnshare(t)
	const trials, writers = 5, 8
	for trial := range trials {
		s.reset(t)
		cmds := make([]*exec.Cmd, writers)
		for i := range writers {
			cmds[i] = s.paCmd(t, "", openArgs(i)...)
			if i%2 == 1 {
				ns := exec.Command("unshare", append([]string{"-p", "-f", "--kill-child", "--mount-proc", cmds[i].Path}, cmds[i].Args[1:]...)...)
				ns.Env = cmds[i].Env
				cmds[i] = ns
			}
		}
		results := runAtOnce(cmds)
		if got := ids(t, results); !slices.Equal(got, seq(1, writers)) {
			t.Fatalf("trial %d: ids %v; want 1..%d, each once", trial, got, writers)
		}
		s.checkEstate(t, seq(1, writers))
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}
