package locktest_test

import (
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Spawn's processes are plain Hosts (no kernel locks, the spec's
// four-field lock); SpawnIn's know identities.
func TestOnlySpawnInIsAnIdentityHost(t *testing.T) {
	m := locktest.NewMachine("host-a")
	if _, ok := any(m.Spawn()).(lockspec.IdentityHost); ok {
		t.Error("Spawn's process is a lockspec.IdentityHost: every test host would take real kernel locks")
	}
	if _, ok := any(m.SpawnIn(7)).(lockspec.IdentityHost); !ok {
		t.Error("SpawnIn's process is not a lockspec.IdentityHost")
	}
}

// An IdentityProcess sees the pids of its own pid namespace only; Self
// is the machine's boot, its namespace and its start time; Reuse gives a
// pid a new start time, Revive keeps it.
func TestIdentityProcessSeesItsNamespace(t *testing.T) {
	m := locktest.NewMachine("host-a")
	a, b, plain := m.SpawnIn(1), m.SpawnIn(2), m.Spawn()
	for _, c := range []struct {
		who  *locktest.IdentityProcess
		pid  int
		want bool
	}{{a, a.PID(), true}, {a, b.PID(), false}, {b, a.PID(), false}, {a, plain.PID(), false}, {m.SpawnIn(0), plain.PID(), true}} {
		if got := c.who.Alive(c.pid); got != c.want {
			t.Errorf("pid %d seen from namespace %d: alive %v; want %v", c.pid, c.who.Namespace(), got, c.want)
		}
		if _, ok := c.who.StartTime(c.pid); ok != c.want {
			t.Errorf("pid %d's start time seen from namespace %d: ok %v; want %v", c.pid, c.who.Namespace(), ok, c.want)
		}
	}
	if !plain.Alive(a.PID()) || !plain.Alive(b.PID()) {
		t.Error("a plain Process does not see every pid of the machine")
	}
	self := a.Self()
	if self.Boot != m.Boot() || len(self.Boot) != 36 || self.PIDNamespace != 1 || self.StartTime != m.StartTime(a.PID()) || self.StartTime == 0 {
		t.Errorf("Self() = %+v; want boot %q, namespace 1, start time %d", self, m.Boot(), m.StartTime(a.PID()))
	}
	if b.Self().StartTime == self.StartTime {
		t.Error("two processes share a start time")
	}
	was := self.StartTime
	a.Kill()
	if a.Alive(a.PID()) {
		t.Error("a killed pid answers")
	}
	m.Revive(a.PID())
	if st, ok := a.StartTime(a.PID()); !ok || st != was {
		t.Errorf("revived: start time %d, %v; want %d (the same process)", st, ok, was)
	}
	m.Reuse(a.PID())
	if st, ok := a.StartTime(a.PID()); !ok || st == was {
		t.Errorf("reused: start time %d, %v; want alive with a start time other than %d", st, ok, was)
	}
	m.SetBoot("")
	if a.Self().Boot != "" {
		t.Error("SetBoot(\"\") left a boot id")
	}
}

// SpawnReusing's process has the old pid, alive again in the namespace it
// is given, with a start time the old process never had.
func TestSpawnReusingTakesAnEarlierPID(t *testing.T) {
	m := locktest.NewMachine("host-a")
	old := m.SpawnIn(0)
	was := old.Self().StartTime
	old.Kill()
	p := m.SpawnReusing(3, old.PID())
	if p.PID() != old.PID() || p.Namespace() != 3 {
		t.Fatalf("pid %d in namespace %d; want %d in 3", p.PID(), p.Namespace(), old.PID())
	}
	if !p.Alive(old.PID()) || old.Alive(old.PID()) {
		t.Error("the reused pid is not alive in the new process's namespace only")
	}
	if st := p.Self().StartTime; st == was || st == 0 {
		t.Errorf("start time %d; want a new one (the old was %d)", st, was)
	}
}

// SpawnTwin's process has the old pid and the old start time, alive in
// the namespace it is given: only the boot id, when the machine's has
// changed, tells it from the earlier process.
func TestSpawnTwinTakesAnEarlierPIDAndStartTime(t *testing.T) {
	m := locktest.NewMachine("host-a")
	m.SetBoot("one")
	old := m.SpawnIn(0)
	was := old.Self()
	old.Kill()
	m.SetBoot("two")
	p := m.SpawnTwin(0, old.PID())
	if p.PID() != old.PID() || !p.Alive(old.PID()) {
		t.Fatalf("pid %d, alive %v; want %d alive", p.PID(), p.Alive(old.PID()), old.PID())
	}
	if now := p.Self(); now.StartTime != was.StartTime || now.Boot == was.Boot {
		t.Errorf("self %+v after %+v; want the same start time, another boot", now, was)
	}
}
