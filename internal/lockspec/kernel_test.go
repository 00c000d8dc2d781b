//go:build unix

package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// The kernel lock as the proof of life (kernel.go), for real: flock(2) on
// the files of a real temp folder. A holder of this process (the real
// host, default Options) and the fake judges of locktest all lock through
// handles of this one test process: flock's locks belong to the open file,
// not to the process, so the judge's new handle is refused while the
// holder's is open, as a judge's of another process would be.

// realIdentity is this process's identity as the real host reads it; the
// test is skipped where the system has no pid namespaces (the judges of
// "another pid namespace" need one to differ from).
func realIdentity(t *testing.T) lockspec.Identity {
	t.Helper()
	self := lockspec.OSHost().(lockspec.IdentityHost).Self()
	if self.PIDNamespace == 0 {
		t.Skip("no pid namespace known on this system (Linux's /proc/self/ns/pid): no other namespace to judge from")
	}
	return self
}

// realJudges are fake judges on the real host's hostname and boot: one of
// another pid namespace, and one of this namespace to whom every real pid
// is gone (as a pid that kill(2) cannot reach reads here).
func realJudges(t *testing.T, self lockspec.Identity) (m *locktest.Machine, otherNS, pidGone *locktest.IdentityProcess) {
	t.Helper()
	m = locktest.NewMachine(hostname(t))
	m.SetBoot(self.Boot)
	return m, m.SpawnIn(self.PIDNamespace + 1), m.SpawnIn(self.PIDNamespace)
}

// noWait is fast(h) with no time to wait: a lock judged dead is broken at
// once, any other is a timeout.
func noWait(h lockspec.Host) lockspec.Options {
	o := fast(h)
	o.Timeout = lockspec.NoWait
	return o
}

// wantNoBreak fails unless a writer of host h with no time to wait times
// out on a holder judged state, leaving the lock's bytes as they were.
func (e *estate) wantNoBreak(t *testing.T, fsys vfs.FS, h lockspec.Host, state lockspec.State) {
	t.Helper()
	before := e.readRaw(t, lockP)
	w, err := lockspec.Acquire(context.Background(), fsys, target, noWait(h))
	if err == nil {
		w.Release()
		t.Fatalf("a writer broke a lock it must judge %v", state)
	}
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != state {
		t.Fatalf("Acquire = %v; want a timeout naming a holder %v", err, state)
	}
	if !bytes.Equal(e.readRaw(t, lockP), before) {
		t.Fatal("the writer changed a lock it did not break")
	}
}

// While a holder keeps its kernel lock, a judge is refused it: alive,
// whatever the pid says, in another pid namespace as in this one. Once
// the holder's handle is closed (its death, to the kernel), the same
// judges see it dead and a writer breaks it at once; the holder's own
// process, alive, still proves it alive by its start time.
func TestKernelLockProvesLifeAndDeath(t *testing.T) {
	self := realIdentity(t)
	eachKeying(t, func(t *testing.T, e *estate) {
		_, otherNS, pidGone := realJudges(t, self)
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, lockspec.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Release()
		pid := os.Getpid()
		judges := []struct {
			name      string
			host      lockspec.Host
			deadSince string // the Evidence once the kernel lock is free
		}{
			{"another pid namespace", otherNS, "in another pid namespace of this host, and no process holds the lock's kernel lock"},
			{"this pid namespace, the pid gone", pidGone, fmt.Sprintf("pid %d is gone and no process holds the lock's kernel lock", pid)},
		}
		for _, j := range judges {
			got := e.inspectBy(t, j.host)
			if got.State != lockspec.StateAlive || got.Evidence != "holds the lock's kernel lock" || !got.KernelLock {
				t.Fatalf("%s: judged %v (%q, claim %v) while the holder keeps its kernel lock; want alive, holds the lock's kernel lock",
					j.name, got.State, got.Evidence, got.KernelLock)
			}
			e.wantNoBreak(t, e.fsys, j.host, lockspec.StateAlive)
		}
		if err := h.Fence(); err != nil {
			t.Fatalf("the holder lost its lock: %v", err)
		}

		lockspec.DropKernelLock(h)
		for _, j := range judges {
			got := e.inspectBy(t, j.host)
			if got.State != lockspec.StateDead || got.Evidence != j.deadSince {
				t.Errorf("%s: judged %v (%q) once the kernel lock is free; want dead, %q", j.name, got.State, got.Evidence, j.deadSince)
			}
		}
		if got := e.inspectBy(t, lockspec.OSHost()); got.State != lockspec.StateAlive ||
			got.Evidence != fmt.Sprintf("pid %d started when the holder did", pid) {
			t.Errorf("the holder's own process judged %v (%q); want alive by its start time", got.State, got.Evidence)
		}
		w, err := lockspec.Acquire(context.Background(), e.fsys, target, noWait(otherNS))
		if err != nil {
			t.Fatalf("a holder whose kernel lock is free was not broken at once: %v", err)
		}
		if err := w.Release(); err != nil {
			t.Fatal(err)
		}
		if err := h.Release(); !errors.Is(err, lockspec.ErrLockLost) {
			t.Fatalf("the broken holder's release = %v; want ErrLockLost", err)
		}
	})
}

// A live holder's lock put back by copy (the bytes under the lock name, in
// a file of another inode) claims a kernel lock on a file that is not the
// one found: it is judged by its identity, never by the claim (the copy's
// kernel lock is free, and would read as dead).
func TestPutBackByCopyJudgedByIdentity(t *testing.T) {
	self := realIdentity(t)
	eachClass(t, func(t *testing.T, e *estate) {
		_, otherNS, pidGone := realJudges(t, self)
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, lockspec.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e.writeRaw(t, "d/copy", e.readRaw(t, lockP))
		if err := os.Rename(e.path("d/copy"), e.path(lockP)); err != nil {
			t.Fatal(err)
		}
		pid := os.Getpid()
		for _, c := range []struct {
			name     string
			host     lockspec.Host
			state    lockspec.State
			evidence string
		}{
			{"another pid namespace", otherNS, lockspec.StateOtherNamespace, ""},
			{"this pid namespace, the pid gone", pidGone, lockspec.StateDead, fmt.Sprintf("pid %d is gone", pid)},
			{"the holder's own process", lockspec.OSHost(), lockspec.StateAlive, fmt.Sprintf("pid %d started when the holder did", pid)},
		} {
			got := e.inspectBy(t, c.host)
			if got.State != c.state || got.Evidence != c.evidence || !got.KernelLock {
				t.Errorf("%s: judged %v (%q, claim %v); want %v (%q), the claim read but not judged", c.name, got.State, got.Evidence, got.KernelLock, c.state, c.evidence)
			}
		}
		e.wantNoBreak(t, e.fsys, otherNS, lockspec.StateOtherNamespace)
		if err := h.Release(); err != nil {
			t.Fatalf("the holder's release of its lock put back by copy = %v", err)
		}
	})
}

// A lock whose kernel-lock claim names another file than the one found
// (another inode, or the same inode number on another device) is not
// judged by the kernel lock, whether the file found is locked or not; the
// claim of the file found is (the control rows).
func TestKernelClaimOnAnotherFileNotJudged(t *testing.T) {
	const host = "host-a"
	for _, c := range []struct {
		name string
		// claim returns the claimed key from the key of the file found and
		// of another file.
		claim     func(found, other vfs.FileKey) vfs.FileKey
		lockFound bool // a handle holds the found file's kernel lock
		otherNS   bool // the holder records pid namespace nsB (else nsA, its pid gone)
		state     lockspec.State
		evidence  string // "" for none; %d is the holder's pid
	}{
		{"another inode, the file found free, another namespace",
			func(_, o vfs.FileKey) vfs.FileKey { return o }, false, true, lockspec.StateOtherNamespace, ""},
		{"another device, the file found free, another namespace",
			func(f, _ vfs.FileKey) vfs.FileKey { return vfs.FileKey{Dev: f.Dev + 1, Ino: f.Ino} }, false, true, lockspec.StateOtherNamespace, ""},
		{"another inode, the file found held, the pid gone",
			func(_, o vfs.FileKey) vfs.FileKey { return o }, true, false, lockspec.StateDead, "pid %d is gone"},
		{"control: the file found, free, another namespace",
			func(f, _ vfs.FileKey) vfs.FileKey { return f }, false, true, lockspec.StateDead, "in another pid namespace of this host, and no process holds the lock's kernel lock"},
		{"control: the file found, held, the pid gone",
			func(f, _ vfs.FileKey) vfs.FileKey { return f }, true, false, lockspec.StateAlive, "holds the lock's kernel lock"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m := locktest.NewMachine(host)
			ns := nsA
			if c.otherNS {
				ns = nsB
			}
			p := m.SpawnIn(ns)
			p.Kill()
			e.setLock(t, []byte("{}"))
			e.writeRaw(t, "d/other", []byte("{}"))
			found, other := fileKey(t, e, lockP), fileKey(t, e, "d/other")
			// The other file is held: a claim tried there would be refused.
			holdKernelLock(t, e, "d/other")
			claim := c.claim(found, other)
			e.setLock(t, identityLock(p.PID(), host, bootField(m.Boot()), nsField(ns),
				startField(m.StartTime(p.PID())), kernelField(claim.Dev, claim.Ino)))
			var release func()
			if c.lockFound {
				release = holdKernelLock(t, e, lockP)
			}
			// The judge's probe is a real flock on the file found, whatever
			// its Host; holdKernelLock's handles stand for the owners.
			got := e.inspectBy(t, m.SpawnIn(nsA))
			evidence := c.evidence
			if strings.Contains(evidence, "%d") {
				evidence = fmt.Sprintf(evidence, p.PID())
			}
			if got.State != c.state || got.Evidence != evidence {
				t.Fatalf("judged %v (%q); want %v (%q)", got.State, got.Evidence, c.state, evidence)
			}
			if c.state != lockspec.StateDead {
				e.wantNoBreak(t, e.fsys, m.SpawnIn(nsA), c.state)
			}
			if release != nil {
				release()
			}
		})
	}
}

// fileKey is the key of name in e.
func fileKey(t *testing.T, e *estate, name string) vfs.FileKey {
	t.Helper()
	fi, err := os.Stat(e.path(name))
	if err != nil {
		t.Fatal(err)
	}
	key, ok := vfs.KeyOf(fi)
	if !ok {
		t.Skipf("no device and inode for %s on this system", name)
	}
	return key
}

// holdKernelLock takes the kernel lock of name by a handle of its own, as
// its owner would (an owner of any process, any pid namespace), and
// returns what closes that handle; the test's end closes it too.
func holdKernelLock(t *testing.T, e *estate, name string) (release func()) {
	t.Helper()
	f, err := e.fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := vfs.TryLock(f, name); err != nil {
		f.Close()
		t.Fatalf("taking the kernel lock of %s: %v", name, err)
	}
	closed := false
	release = func() {
		if !closed {
			closed = true
			f.Close()
		}
	}
	t.Cleanup(release)
	return release
}

// noExclusionFS is a volume whose kernel locks do not exclude a second
// open: every TryLock of its files succeeds and locks nothing (flock on
// some network and FUSE volumes). Everything else is the FS it wraps.
type noExclusionFS struct{ vfs.FS }

// Unwrap lets the lock see the class of the FS wrapped.
func (f noExclusionFS) Unwrap() vfs.FS { return f.FS }

func (f noExclusionFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return noExclusionFile{file}, nil
}

type noExclusionFile struct{ vfs.File }

func (noExclusionFile) TryLock() error { return nil }
func (noExclusionFile) Unlock() error  { return nil }

// Where kernel locks do not exclude a second open, they prove nothing: a
// judge there is granted the lock of a live holder, and a holder there
// takes one that excludes no one. Neither leads to a break of a live
// holder in another pid namespace: the judge does not count a lock that a
// second open of its own is granted too, and the holder claims none.
func TestKernelLockThatDoesNotExcludeProvesNothing(t *testing.T) {
	self := realIdentity(t)
	for _, c := range []struct {
		name           string
		holder, judge  func(vfs.FS) vfs.FS
		wantClaimInRec bool
	}{
		{"the judge's volume", func(f vfs.FS) vfs.FS { return f }, func(f vfs.FS) vfs.FS { return noExclusionFS{f} }, true},
		{"the holder's volume", func(f vfs.FS) vfs.FS { return noExclusionFS{f} }, func(f vfs.FS) vfs.FS { return f }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				_, otherNS, _ := realJudges(t, self)
				h, err := lockspec.Acquire(context.Background(), c.holder(e.fsys), target, lockspec.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer h.Release()
				got, err := lockspec.Inspect(c.judge(e.fsys), target, lockspec.Options{Host: otherNS})
				if err != nil {
					t.Fatal(err)
				}
				if got.State != lockspec.StateOtherNamespace || got.Evidence != "" || got.KernelLock != c.wantClaimInRec {
					t.Fatalf("judged %v (%q, claim %v); want in another pid namespace, no evidence, claim %v",
						got.State, got.Evidence, got.KernelLock, c.wantClaimInRec)
				}
				e.wantNoBreak(t, c.judge(e.fsys), otherNS, lockspec.StateOtherNamespace)
				if err := h.Fence(); err != nil {
					t.Fatalf("the live holder lost its lock: %v", err)
				}
			})
		})
	}
}

// A name beside the lock whose owner's pid is gone as the sweeper sees it
// (the owner lives in another pid namespace) but whose kernel lock a live
// handle holds is not swept; once that handle is closed, it is.
func TestLeftoverHeldByItsKernelLockNotSwept(t *testing.T) {
	for _, kind := range []string{"log.json.lock.pending-", "log.json.lock.broken-", "log.json.lock.claim-0123456789abcdef-", "log.json.tmp-"} {
		t.Run(kind, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				m := locktest.NewMachine("host-a")
				owner := m.SpawnIn(nsB) // alive, but gone as nsA sees pids
				name := fmt.Sprintf("d/%s%s-%d-0123456789abcdef01234567", kind, lockspec.HostHash("host-a"), owner.PID())
				e.writeRaw(t, name, []byte("{}"))
				release := holdKernelLock(t, e, name)
				// An IdentityProcess: only a sweeper that takes kernel
				// locks tries the leftover's (a plain Process removes it on
				// the pid alone, as the spec's sweep does).
				sweeper := m.SpawnIn(nsA)
				sweep := func() {
					h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(sweeper))
					if err != nil {
						t.Fatal(err)
					}
					if err := h.Release(); err != nil {
						t.Fatal(err)
					}
				}
				sweep()
				if !e.exists(name) {
					t.Fatal("a name whose kernel lock its owner holds was swept")
				}
				release()
				sweep()
				if e.exists(name) {
					t.Fatal("a name whose owner's pid is gone and whose kernel lock is free was not swept")
				}
			})
		})
	}
}

// A breaker's listing of the claims on the lock (break.go) keeps the claim
// of another breaker whose pid is gone as it sees it while that claim's
// kernel lock is held: the unlock is busy, the lock left; once the handle
// is closed the claim is removed and the unlock goes on.
func TestClaimHeldByItsKernelLockStopsABreak(t *testing.T) {
	e := newEstate(t, classes[0])
	m, lock := deadHolderInNamespaceA(t, e)
	owner := m.SpawnIn(nsB)
	claim := fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf(lock), lockspec.HostHash("host-a"), owner.PID())
	e.writeRaw(t, claim, []byte("{}"))
	release := holdKernelLock(t, e, claim)
	breaker := m.SpawnIn(nsA) // takes kernel locks, so it tries the claim's

	judged := e.inspectBy(t, breaker)
	if judged.State != lockspec.StateDead {
		t.Fatalf("the lock judged %v; want dead", judged.State)
	}
	err := lockspec.Unlock(context.Background(), e.fsys, target, judged, false, fast(breaker))
	var be *lockspec.BusyError
	if !errors.As(err, &be) || be.Claim.PID != owner.PID() {
		t.Fatalf("Unlock = %v; want busy on the claim of pid %d", err, owner.PID())
	}
	if !e.exists(claim) || !bytes.Equal(e.readRaw(t, lockP), lock) {
		t.Fatal("a claim whose kernel lock is held was removed, or the lock moved past it")
	}
	release()
	if err := lockspec.Unlock(context.Background(), e.fsys, target, judged, false, fast(breaker)); err != nil {
		t.Fatalf("Unlock once the claim's kernel lock is free = %v", err)
	}
	if e.exists(claim) || e.exists(lockP) {
		t.Fatal("the dead claim or the dead lock is still there")
	}
}

// A breaker's claim records the kernel lock it holds on its own file, so a
// claim left by a breaker that died is known dead by that lock even where
// its pid answers (reused; or a small pid of another pid namespace, which
// names a kernel thread or init here): it no longer keeps every breaker of
// the dead lock waiting until unlock --force. A claim that records the
// lock while it is held still stops a break.
func TestDeadClaimWithAPidThatAnswersDoesNotBlockABreak(t *testing.T) {
	e := newEstate(t, classes[0])
	m, lock := deadHolderInNamespaceA(t, e)

	// A real breaker's claim, paused after its listing, names its own file.
	reached, resume := make(chan string), make(chan struct{})
	first := fast(m.SpawnIn(nsA))
	pauseAt(&first, lockspec.StepBreakClaimed, e.sendNames(t, reached, ".claim-"), resume)
	done := make(chan error, 1)
	go func() {
		judged, err := lockspec.Inspect(e.fsys, target, first)
		if err == nil {
			err = lockspec.Unlock(context.Background(), e.fsys, target, judged, false, first)
		}
		done <- err
	}()
	var claim string
	select {
	case claim = <-reached:
	case err := <-done:
		t.Fatalf("the first breaker ended (%v) before its claim was listed", err)
	}
	key := fileKey(t, e, claim)
	if body := string(e.readRaw(t, claim)); !strings.Contains(body, kernelField(key.Dev, key.Ino)) {
		t.Errorf("a breaker's claim reads %s; want it to name its kernel lock %s", body, kernelField(key.Dev, key.Ino))
	}
	close(resume)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// A claim of a breaker that died, whose pid now answers (reused).
	owner := m.SpawnIn(nsA)
	claim = fmt.Sprintf("d/log.json.lock.claim-%s-%s-%d-0123456789abcdef01234567", keyOf(lock), lockspec.HostHash("host-a"), owner.PID())
	e.setLock(t, lock)
	e.writeRaw(t, claim, []byte("{}"))
	ck := fileKey(t, e, claim)
	e.writeRaw(t, claim, []byte(fmt.Sprintf(`{"at":"2026-01-02T03:04:05.000Z","hostname":"host-a",%s,"pid":%d}`, kernelField(ck.Dev, ck.Ino), owner.PID())))
	owner.Kill()
	m.Reuse(owner.PID())
	breaker := m.SpawnIn(nsA)
	judged := e.inspectBy(t, breaker)

	release := holdKernelLock(t, e, claim)
	err := lockspec.Unlock(context.Background(), e.fsys, target, judged, false, fast(breaker))
	var be *lockspec.BusyError
	if !errors.As(err, &be) || !e.exists(claim) {
		t.Fatalf("Unlock = %v while the claim's kernel lock is held; want busy, the claim kept", err)
	}
	release()
	if err := lockspec.Unlock(context.Background(), e.fsys, target, judged, false, fast(breaker)); err != nil {
		t.Fatalf("Unlock past the claim of a dead breaker whose pid answers = %v; want the lock broken", err)
	}
	if e.exists(claim) || e.exists(lockP) {
		t.Fatalf("the folder holds %q; want the dead claim and the dead lock gone", e.ls(t))
	}
}

// A pending file or a moved lock left by a writer that died, whose record
// names the kernel lock of its own file, is swept once that lock is free
// even where its pid answers (reused; or a small pid of another pid
// namespace, a kernel thread or init here), so that a container's dead
// writer leaves nothing behind. While the lock is held it is kept, and a
// name whose content names no kernel lock is still judged by its pid.
func TestLeftoverWithAPidThatAnswersSweptByItsKernelLock(t *testing.T) {
	eachKeying(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		owner := m.SpawnIn(nsA)
		owner.Kill()
		m.Reuse(owner.PID())
		owned := fmt.Sprintf("%s-%d-0123456789abcdef01234567", lockspec.HostHash("host-a"), owner.PID())
		freed := []string{"d/log.json.lock.pending-" + owned, "d/log.json.lock.broken-" + owned}
		for _, n := range freed {
			e.writeRaw(t, n, []byte("{}"))
			k := fileKey(t, e, n)
			e.writeRaw(t, n, identityLock(owner.PID(), "host-a", nsField(nsA), kernelField(k.Dev, k.Ino)))
		}
		unclaimed := "d/log.json.lock.pending-" + fmt.Sprintf("%s-%d-89abcdef0123456701234567", lockspec.HostHash("host-a"), owner.PID())
		e.writeRaw(t, unclaimed, identityLock(owner.PID(), "host-a", nsField(nsA)))
		// A record that names another file's kernel lock (a lock put back by
		// copy, then moved by a release) proves nothing of this file's owner.
		other := "d/log.json.lock.broken-" + fmt.Sprintf("%s-%d-456789abcdef012301234567", lockspec.HostHash("host-a"), owner.PID())
		k := fileKey(t, e, unclaimed)
		e.writeRaw(t, other, identityLock(owner.PID(), "host-a", nsField(nsA), kernelField(k.Dev, k.Ino)))
		sweep := func() {
			t.Helper()
			h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.SpawnIn(nsA)))
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
		}
		release := holdKernelLock(t, e, freed[0])
		sweep()
		if !e.exists(freed[0]) {
			t.Fatal("a pending file whose kernel lock is held was swept")
		}
		if e.exists(freed[1]) {
			t.Errorf("the moved lock of a dead writer, its kernel lock free, was not swept: %q", e.ls(t))
		}
		release()
		sweep()
		if e.exists(freed[0]) {
			t.Errorf("the pending file of a dead writer, its kernel lock free, was not swept: %q", e.ls(t))
		}
		if !e.exists(unclaimed) {
			t.Error("a pending file that names no kernel lock was swept although its pid answers")
		}
		if !e.exists(other) {
			t.Error("a moved lock that names another file's kernel lock was swept although its pid answers")
		}
	})
}

// A commit's temp file, held with its kernel lock by a writer of another
// pid namespace (pid gone as the sweeper sees it), is not swept by a
// writer that comes meanwhile: the commit lands. The writer of nsB is a
// locktest.IdentityProcess, so its hold takes real kernel locks on the
// lock and on the temp file, which is the point here.
func TestCommitTempFileOfAnotherNamespaceNotSwept(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		reached, resume := make(chan struct{}), make(chan struct{})
		o := fast(m.SpawnIn(nsB))
		pauseAt(&o, lockspec.StepCommitTempWritten, func() { close(reached) }, resume)
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, o)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- h.Commit([]byte(`["one"]`)) }()
		<-reached
		var temps []string
		for _, n := range e.ls(t) {
			if len(n) > len("log.json.tmp-") && n[:len("log.json.tmp-")] == "log.json.tmp-" {
				temps = append(temps, n)
			}
		}
		if len(temps) != 1 {
			t.Fatalf("the folder holds %q; want one temp file", e.ls(t))
		}
		e.wantNoBreak(t, e.fsys, m.SpawnIn(nsA), lockspec.StateAlive)
		if !e.exists("d/" + temps[0]) {
			t.Error("the commit's temp file, held by its kernel lock, was swept")
		}
		close(resume)
		if err := <-done; err != nil {
			t.Fatalf("the commit = %v", err)
		}
		if err := h.Release(); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "one")
	})
}

// A name beside the lock that the sweeper cannot open (another user's
// file, mode 0600 under umask 077: EACCES) cannot have its kernel lock
// tried, so its owner, whose pid is gone as the sweeper sees it, may live
// in another pid namespace: it is left, never removed on the pid alone.
func TestLeftoverThatCannotBeOpenedNotSwept(t *testing.T) {
	for _, kind := range []string{"log.json.lock.pending-", "log.json.tmp-"} {
		t.Run(kind, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m := locktest.NewMachine("host-a")
			owner := m.SpawnIn(nsB) // alive, but gone as nsA sees pids
			base := fmt.Sprintf("%s%s-%d-0123456789abcdef01234567", kind, lockspec.HostHash("host-a"), owner.PID())
			e.writeRaw(t, "d/"+base, []byte("{}"))
			holdKernelLock(t, e, "d/"+base)
			ffs := faultfs.New(e.fsys)
			ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: base, Err: syscall.EACCES})
			h, err := lockspec.Acquire(context.Background(), ffs, target, fast(m.SpawnIn(nsA)))
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
			if !e.exists("d/" + base) {
				t.Fatal("a name whose kernel lock could not be tried was swept on its pid alone")
			}
		})
	}
}

// deadHolderInNamespaceA sets the lock of e to one of a process of pid
// namespace nsA that has died, recorded with its boot, namespace and start
// time, and returns its machine and the lock's bytes.
func deadHolderInNamespaceA(t *testing.T, e *estate) (*locktest.Machine, []byte) {
	t.Helper()
	m := locktest.NewMachine("host-a")
	dead := m.SpawnIn(nsA)
	dead.Kill()
	lock := identityLock(dead.PID(), "host-a", bootField(m.Boot()), nsField(nsA), startField(m.StartTime(dead.PID())))
	e.setLock(t, lock)
	return m, lock
}

// keyings are the two ways a volume says which file a handle or a name is
// of: in the stat data (osfs on Unix), or only from an open handle
// (osfs on Windows, whose stat carries no key: handleKeys).
var keyings = []struct {
	name string
	wrap func(vfs.FS) vfs.FS
}{
	{"stat keys", func(f vfs.FS) vfs.FS { return f }},
	{"handle keys", handleKeys},
}

// eachKeying runs fn on each class's estate under each keying.
func eachKeying(t *testing.T, fn func(t *testing.T, e *estate)) {
	for _, k := range keyings {
		t.Run(k.name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				e.fsys = k.wrap(e.fsys)
				fn(t, e)
			})
		})
	}
}

// handleKeys wraps fsys as osfs is on Windows, so that a Unix run goes
// through the lock's handle keys (vfs.KeyOfFile, vfs.KeyOfName): no stat
// data of a name or of an open file carries a key, and each open file
// says its key from its handle (a vfs.FileKeyer), with its kernel lock
// and its in-place writes forwarded. Only OpenFile and Stat are wrapped:
// the optional interfaces of fsys are not forwarded, and the lock works
// without them.
func handleKeys(fsys vfs.FS) vfs.FS { return handleKeyFS{fsys} }

type handleKeyFS struct{ vfs.FS }

// Unwrap lets the lock see the class of the FS wrapped.
func (h handleKeyFS) Unwrap() vfs.FS { return h.FS }

func (h handleKeyFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := h.FS.Stat(name)
	if err != nil {
		return nil, err
	}
	return keylessInfo{fi}, nil
}

func (h handleKeyFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := h.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return handleKeyFile{f, name}, nil
}

// keylessInfo is stat data with no key in it, as Go's on Windows.
type keylessInfo struct{ fs.FileInfo }

func (keylessInfo) Sys() any { return nil }

type handleKeyFile struct {
	vfs.File
	name string
}

var (
	_ vfs.Locker    = handleKeyFile{}
	_ vfs.FileKeyer = handleKeyFile{}
	_ io.WriterAt   = handleKeyFile{}
)

func (f handleKeyFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return keylessInfo{fi}, nil
}

// FileKey is the key the wrapped handle's own stat data gives: the
// handle's, as GetFileInformationByHandle's on Windows.
func (f handleKeyFile) FileKey() (vfs.FileKey, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return vfs.FileKey{}, err
	}
	if key, ok := vfs.KeyOf(fi); ok {
		return key, nil
	}
	return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.name, Err: errors.ErrUnsupported}
}

func (f handleKeyFile) TryLock() error { return vfs.TryLock(f.File, f.name) }

func (f handleKeyFile) Unlock() error {
	if l, ok := f.File.(vfs.Locker); ok {
		return l.Unlock()
	}
	return &fs.PathError{Op: "funlock", Path: f.name, Err: errors.ErrUnsupported}
}

func (f handleKeyFile) WriteAt(p []byte, off int64) (int, error) {
	if w, ok := f.File.(io.WriterAt); ok {
		return w.WriteAt(p, off)
	}
	return 0, &fs.PathError{Op: "write", Path: f.name, Err: errors.ErrUnsupported}
}
