package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The proof of death (proof.go), judged from the record alone: every lock
// here is written by hand (no process holds its kernel lock, and none
// claims one), judged by a fake process of pid namespace nsA that knows
// identities, and then met by a writer of nsA with no time to wait: a lock
// judged dead is broken at once, any other is left byte for byte. The
// judge and the writer are locktest.IdentityProcesses, so their own holds
// take real kernel locks on the temp folder's files: that is what a real
// writer does, and nothing here depends on it.
func TestProofOfDeath(t *testing.T) {
	const host = "host-a"
	for _, c := range []struct {
		name string
		// lock returns the holder's lock, its processes spawned on m, and
		// the Evidence the judge must give.
		lock  func(m *locktest.Machine) (lock []byte, evidence string)
		state lockspec.State
	}{
		{"another boot, its pid alive here with the holder's start time", func(m *locktest.Machine) ([]byte, string) {
			// The pid namespace of the first process of a boot keeps its
			// inode, and start times count from the boot: a holder of the
			// last boot can match a live process of this one in all but the
			// boot.
			p := m.SpawnIn(nsA)
			return identityLock(p.PID(), host, bootField(otherBoot), nsField(nsA), startField(p.Self().StartTime)),
				"a process of an earlier boot of this host (boot " + otherBoot + ")"
		}, lockspec.StateDead},
		{"another pid namespace, its pid unknown here", func(m *locktest.Machine) ([]byte, string) {
			p := m.SpawnIn(nsB) // alive, but gone as nsA sees pids
			return identityLock(p.PID(), host, bootField(m.Boot()), nsField(nsB), startField(p.Self().StartTime)), ""
		}, lockspec.StateOtherNamespace},
		{"another pid namespace, its holder dead there", func(m *locktest.Machine) ([]byte, string) {
			// Without a kernel lock nothing here can prove it: a block, as
			// a lock of another host is.
			p := m.SpawnIn(nsB)
			p.Kill()
			return identityLock(p.PID(), host, bootField(m.Boot()), nsField(nsB), startField(p.Self().StartTime)), ""
		}, lockspec.StateOtherNamespace},
		{"this pid namespace, pid gone", func(m *locktest.Machine) ([]byte, string) {
			p := m.SpawnIn(nsA)
			p.Kill()
			return identityLock(p.PID(), host, bootField(m.Boot()), nsField(nsA), startField(m.StartTime(p.PID()))),
				fmt.Sprintf("pid %d is gone", p.PID())
		}, lockspec.StateDead},
		{"this pid namespace, pid reused", func(m *locktest.Machine) ([]byte, string) {
			p := m.SpawnIn(nsA)
			was := p.Self().StartTime
			p.Kill()
			m.Reuse(p.PID())
			return identityLock(p.PID(), host, bootField(m.Boot()), nsField(nsA), startField(was)),
				fmt.Sprintf("pid %d started at %d is not the holder, which started at %d", p.PID(), m.StartTime(p.PID()), was)
		}, lockspec.StateDead},
		{"no pid namespace recorded, pid reused", func(m *locktest.Machine) ([]byte, string) {
			p := m.SpawnIn(nsA)
			was := p.Self().StartTime
			m.Reuse(p.PID())
			return identityLock(p.PID(), host, bootField(m.Boot()), startField(was)),
				fmt.Sprintf("pid %d started at %d is not the holder, which started at %d", p.PID(), m.StartTime(p.PID()), was)
		}, lockspec.StateDead},
		{"this pid namespace, pid alive with the holder's start time", func(m *locktest.Machine) ([]byte, string) {
			p := m.SpawnIn(nsA)
			return identityLock(p.PID(), host, bootField(m.Boot()), nsField(nsA), startField(p.Self().StartTime)),
				fmt.Sprintf("pid %d started when the holder did", p.PID())
		}, lockspec.StateAlive},
		{"this pid namespace, pid alive, no start time recorded", func(m *locktest.Machine) ([]byte, string) {
			p := m.SpawnIn(nsA)
			return identityLock(p.PID(), host, bootField(m.Boot()), nsField(nsA)), fmt.Sprintf("pid %d answers", p.PID())
		}, lockspec.StateAlive},
		{"a judge that knows no boot id does not compare it", func(m *locktest.Machine) ([]byte, string) {
			m.SetBoot("")
			p := m.SpawnIn(nsA)
			return identityLock(p.PID(), host, bootField(otherBoot), nsField(nsA), startField(p.Self().StartTime)),
				fmt.Sprintf("pid %d started when the holder did", p.PID())
		}, lockspec.StateAlive},
	} {
		t.Run(c.name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				m := locktest.NewMachine(host)
				lock, evidence := c.lock(m)
				e.setLock(t, lock)
				got := e.inspectBy(t, m.SpawnIn(nsA))
				if got.State != c.state || got.Evidence != evidence {
					t.Fatalf("judged %v, evidence %q; want %v, %q", got.State, got.Evidence, c.state, evidence)
				}
				contains(t, lockspec.Describe(got), "("+c.state.String())
				if got.KernelLock {
					t.Errorf("a lock that claims no kernel lock read as claiming one")
				}

				o := fast(m.SpawnIn(nsA))
				o.Timeout = lockspec.NoWait
				h, err := lockspec.Acquire(context.Background(), e.fsys, target, o)
				if c.state == lockspec.StateDead {
					if err != nil {
						t.Fatalf("a lock judged dead was not broken at once: %v", err)
					}
					h.Release()
					return
				}
				var te *lockspec.TimeoutError
				if !errors.As(err, &te) || te.Holder.State != c.state {
					t.Fatalf("Acquire = %v; want a timeout naming a holder %v", err, c.state)
				}
				contains(t, err.Error(), "("+c.state.String())
				if !bytes.Equal(e.readRaw(t, lockP), lock) {
					t.Fatal("a lock not judged dead was changed")
				}
			})
		})
	}
}

// A holder in another pid namespace of this host is never broken: its pid
// means nothing here, and every message names why the writer waits. The
// writers are IdentityProcesses: their pending files take real kernel
// locks, as a real writer's do; nothing here depends on it.
func TestOtherNamespaceNamedInMessages(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	p := m.SpawnIn(nsB)
	lock := identityLock(p.PID(), "host-a", bootField(m.Boot()), nsField(nsB), startField(p.Self().StartTime))
	e.setLock(t, lock)
	got := e.inspectBy(t, m.SpawnIn(nsA))
	want := fmt.Sprintf(`pid %d on host "host-a" (in another pid namespace of this host, age 3s, acquiredAt 2026-01-02T03:04:05.000Z)`, p.PID())
	if lockspec.Describe(got) != want {
		t.Errorf("Describe() = %q\nwant        %q", lockspec.Describe(got), want)
	}
	_, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.SpawnIn(nsA)))
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("Acquire = %v; want a timeout", err)
	}
	contains(t, err.Error(), "lock "+lockP+" held by pid", "in another pid namespace of this host")
	neutral(t, "timeout", err.Error())
	err = lockspec.Unlock(context.Background(), e.fsys, target, got, false, fast(m.SpawnIn(nsA)))
	var re *lockspec.RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("Unlock without force = %v; want a refusal", err)
	}
	contains(t, err.Error(), "in another pid namespace of this host")
	if !bytes.Equal(e.readRaw(t, lockP), lock) {
		t.Fatal("the lock of a holder in another pid namespace was changed")
	}
}

// The spec's four-field lock is judged as the spec says, by kill(pid, 0)
// alone, by a judge that knows identities as by one that does not: the
// same state, no evidence, no identity, and the very bytes of Describe the
// spec's messages had (a reused pid is a block, as the spec says). The
// judges only read (no hold, so no kernel lock of theirs).
func TestFourFieldLockJudgedAsTheSpecSays(t *testing.T) {
	for _, c := range []struct {
		name     string
		withHost bool
		holder   func(m *locktest.Machine) int
		state    string
	}{
		{"alive", true, func(m *locktest.Machine) int { return m.Spawn().PID() }, "alive"},
		{"dead", true, func(m *locktest.Machine) int { p := m.Spawn(); p.Kill(); return p.PID() }, "dead"},
		{"reused pid", true, func(m *locktest.Machine) int { p := m.Spawn(); m.Reuse(p.PID()); return p.PID() }, "alive"},
		{"no hostname, alive", false, func(m *locktest.Machine) int { return m.Spawn().PID() }, "alive"},
		{"no hostname, dead", false, func(m *locktest.Machine) int { p := m.Spawn(); p.Kill(); return p.PID() }, "dead"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEstate(t, classes[0])
			m := locktest.NewMachine("host-a")
			pid := c.holder(m)
			e.setLock(t, lockJSON(pid, "host-a", c.withHost, "0123456789abcdef01234567", judgedAt))
			host := `host "host-a"`
			if !c.withHost {
				host = "no hostname (this host)"
			}
			want := fmt.Sprintf("pid %d on %s (%s, age 3s, acquiredAt 2026-01-02T03:04:05.000Z)", pid, host, c.state)
			for _, j := range []struct {
				name string
				host lockspec.Host
			}{{"plain judge", m.Spawn()}, {"identity judge", m.SpawnIn(0)}} {
				got := e.inspectBy(t, j.host)
				if lockspec.Describe(got) != want || got.Evidence != "" || got.Identity != (lockspec.Identity{}) || got.KernelLock {
					t.Errorf("%s: Describe() = %q, evidence %q, identity %+v, kernel lock %v; want %q and nothing else",
						j.name, lockspec.Describe(got), got.Evidence, got.Identity, got.KernelLock, want)
				}
			}
		})
	}
}
