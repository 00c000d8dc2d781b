package conformance

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/internal/lockview"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
)

// brokenAtOnce fails unless a writer that does not wait breaks the lock
// and commits, having judged the holder dead by evidence naming want.
func (s *site) brokenAtOnce(t *testing.T, want string) {
	t.Helper()
	got, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil || got.State != locking.StateDead || !strings.Contains(got.Evidence, want) {
		t.Fatalf("Inspect = state %v evidence %q, %v; want dead by %q", got.State, got.Evidence, err, want)
	}
	s.mustWrite(t, "after", noWait(s.me()))
	s.wantTitles(t, "after")
	s.onlyLog(t)
}

// blocks fails unless a writer that does not wait times out naming the
// holder in state with evidence want, the lock left byte for byte.
func (s *site) blocks(t *testing.T, fsys vfs.FS, state locking.State, want string) {
	t.Helper()
	lock := s.readRaw(t, lockName)
	_, err := spawnlog.Append(context.Background(), fsys, agent, "blocked", nil, noWait(s.me()))
	var te *locking.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != state || te.Holder.Evidence != want {
		t.Fatalf("a writer: %v; want a timeout naming the holder %v with evidence %q", err, state, want)
	}
	if !bytes.Equal(s.readRaw(t, lockName), lock) {
		t.Fatalf("the lock changed")
	}
}

// R52: a pid reused by an unrelated live process is no proof of life when
// the lock records more: with a kernel-lock claim (the kernel lock is
// free) or a start time (another one), the lock is broken at once. The
// four-field lock of such a pid blocks, as the spec says (row R07).
func reusedPIDWithIdentity(t *testing.T, s *site) {
	self := selfIdentity(t)
	if self.PIDNamespace == 0 && self.StartTime == 0 {
		t.Skip("this host records neither a pid namespace nor a start time")
	}
	t.Run("kernel-lock-claim", func(t *testing.T) {
		s.reset(t)
		pid := s.newProcess(t)
		s.writeClaimingLock(t, func(key vfs.FileKey) []byte {
			return identityLock(pid, "5eed5eed5eed5eed5eed5eed", time.Now(), lockspec.Identity{Boot: self.Boot, PIDNamespace: self.PIDNamespace}, &key)
		})
		s.brokenAtOnce(t, "no process holds the lock's kernel lock")
	})
	t.Run("start-time", func(t *testing.T) {
		s.reset(t)
		pid := s.newProcess(t)
		s.writeRaw(t, lockName, identityLock(pid, "5eed5eed5eed5eed5eed5eed", time.Now(), lockspec.Identity{Boot: self.Boot, PIDNamespace: self.PIDNamespace, StartTime: 1}, nil))
		s.brokenAtOnce(t, "is not the holder")
	})
	t.Run("four-field", func(t *testing.T) {
		s.reset(t)
		pid := s.newProcess(t)
		s.writeRaw(t, lockName, lockJSON(pid, s.hostname(), true, "5eed5eed5eed5eed5eed5eed", time.Now()))
		s.blocks(t, s.fs, locking.StateAlive, "")
	})
}

// R53: a holder of an earlier boot of this host (another boot id, the same
// hostname) is dead, whatever its pid says now.
func earlierBootBroken(t *testing.T, s *site) {
	self := selfIdentity(t)
	if self.Boot == "" {
		t.Skip("this host records no boot id")
	}
	other := "00000000-0000-4000-8000-000000000001"
	if other == self.Boot {
		other = "00000000-0000-4000-8000-000000000002"
	}
	s.writeRaw(t, lockName, identityLock(s.livePID(t), "b007b007b007b007b007b007", time.Now().Add(-time.Hour), lockspec.Identity{Boot: other, PIDNamespace: self.PIDNamespace}, nil))
	s.brokenAtOnce(t, "earlier boot")
}

// R54: a holder stopped with SIGSTOP is alive (it holds its lock's kernel
// lock): never broken, not even by unlock without force; once it goes on,
// its commit lands.
func stoppedHolderKept(t *testing.T, s *site) {
	s.mustWrite(t, "pre", fast(s.me()))
	h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Pause: []stepAt{{Step: lockspec.StepHoldRead}}})
	h.paused(t, lockspec.StepHoldRead)
	h.stop(t)
	evidence := "holds the lock's kernel lock"
	if !bytes.Contains(s.readRaw(t, lockName), []byte(`"kernelLock"`)) {
		evidence = "pid " + itoa(h.pid()) + " started when the holder did" // a kernel lock per name (ntfs-3g)
	}
	s.blocks(t, s.fs, locking.StateAlive, evidence)
	got, err := locking.Inspect(s.fs, logName, fast(s.me()))
	if err != nil {
		t.Fatal(err)
	}
	var re *locking.RefusedError
	if err := locking.Unlock(context.Background(), s.fs, logName, got, false, fast(s.me())); !errors.As(err, &re) {
		t.Fatalf("unlock without force of a stopped holder: %v; want a refusal", err)
	}
	h.cont(t)
	h.resume(t)
	h.saidDone(t)
	s.wantTitles(t, "pre", "holder")
	s.onlyLog(t)
}

// R55: a lock put back by copy is another file, so its claim of a kernel
// lock proves nothing and it is judged by its identity: its live holder
// (its pid, started when the holder did) keeps it and commits; a dead
// holder's copy is broken at once.
func copiedLockJudgedByIdentity(t *testing.T, s *site) {
	if selfIdentity(t).StartTime == 0 {
		t.Skip("this host records no start time")
	}
	t.Run("live", func(t *testing.T) {
		s.reset(t)
		h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Pause: []stepAt{{Step: lockspec.StepHoldRead}}})
		h.paused(t, lockspec.StepHoldRead)
		s.copyLock(t)
		s.blocks(t, s.fs, locking.StateAlive, "pid "+itoa(h.pid())+" started when the holder did")
		h.resume(t)
		h.saidDone(t)
		s.wantTitles(t, "holder")
		s.onlyLog(t)
	})
	t.Run("dead", func(t *testing.T) {
		s.reset(t)
		h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Kill: []lockspec.Step{lockspec.StepHoldRead}})
		h.killedAt(t, lockspec.StepHoldRead)
		s.copyLock(t)
		s.brokenAtOnce(t, "pid "+itoa(h.pid())+" is gone")
	})
}

// R56: where kernel locks are refused, or granted to a second open of one
// file, a holder claims none and a claim proves nothing: a live holder in
// another pid namespace is held, never broken, by a writer of this one.
func noKernelLockNeverBreaks(t *testing.T, s *site) {
	self := selfIdentity(t)
	if self.PIDNamespace == 0 {
		t.Skip("this host records no pid namespace")
	}
	for _, mode := range []string{kernelRefused, kernelNoExclude} {
		t.Run(mode, func(t *testing.T) {
			s.reset(t)
			view := withKernelLocks(s.fs, mode)
			h := s.start(t, "holder", childSpec{Role: roleWrite, Title: "holder", Namespace: true, KernelLocks: mode,
				Pause: []stepAt{{Step: lockspec.StepHoldRead}}})
			h.paused(t, lockspec.StepHoldRead)
			if lock := s.readRaw(t, lockName); bytes.Contains(lock, []byte(`"kernelLock"`)) {
				t.Fatalf("a holder on a volume whose kernel locks do not work claims one: %s", lock)
			}
			s.blocks(t, view, locking.StateOtherNamespace, "")
			h.resume(t)
			h.saidDone(t)

			// A lock that claims a kernel lock on its own file anyway,
			// for a holder of another namespace: read through this
			// volume, the lock granted proves nothing.
			s.reset(t)
			s.writeClaimingLock(t, func(key vfs.FileKey) []byte {
				return identityLock(s.deadPID(t), "c1a1c1a1c1a1c1a1c1a1c1a1", time.Now(), lockspec.Identity{Boot: self.Boot, PIDNamespace: otherNamespace(self)}, &key)
			})
			s.blocks(t, view, locking.StateOtherNamespace, "")
		})
	}
}

// R57: the spec's four-field lock is judged as the spec says, by an
// implementation that records identities: a dead pid is broken at once,
// a live one (a reused pid among them) blocks, and no evidence is worded
// (its lines are the spec's, byte for byte).
func fourFieldJudgedByTheSpec(t *testing.T, s *site) {
	t.Run("dead", func(t *testing.T) {
		s.writeRaw(t, lockName, lockJSON(s.deadPID(t), s.hostname(), true, "4f4f4f4f4f4f4f4f4f4f4f4f", time.Now()))
		got, err := locking.Inspect(s.fs, logName, fast(s.me()))
		if err != nil || got.State != locking.StateDead || got.Evidence != "" || got.KernelLock || got.Identity != (lockspec.Identity{}) {
			t.Fatalf("Inspect = %+v, %v; want dead, no evidence, no identity", got, err)
		}
		s.mustWrite(t, "after", noWait(s.me()))
		s.wantTitles(t, "after")
	})
	t.Run("live", func(t *testing.T) {
		s.reset(t)
		pid := s.livePID(t)
		s.writeRaw(t, lockName, lockJSON(pid, s.hostname(), true, "4f4f4f4f4f4f4f4f4f4f4f4f", time.Now()))
		s.blocks(t, s.fs, locking.StateAlive, "")
		got, _ := locking.Inspect(s.fs, logName, fast(s.me()))
		contains(t, lockview.Describe(got), "pid "+itoa(pid)+` on host "`, "(alive, age ")
	})
}
