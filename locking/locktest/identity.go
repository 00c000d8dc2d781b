package locktest

import (
	"crypto/sha256"
	"fmt"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// IdentityProcess is one fake process of a Machine that knows identities:
// it implements lockspec.IdentityHost. Its Self is the machine's boot id,
// its pid namespace and its start time; it sees only the pids of its own
// namespace (Alive and StartTime of a pid of another namespace read as
// gone, as a real process's kill(2) and /proc do where pid numbers are the
// namespace's own).
//
// Unlike a Process, it makes the locking package take real kernel locks
// (flock(2)) on the files its holds make, through handles of this test
// process. Those locks exclude every other handle, this process's own
// included, so a judge of its lock (of any fake process, on any real
// volume) is refused them while the hold lasts: a real proof of life. Kill
// does not let them go (a fake death is no real one): only Release, or
// closing the handle, does. A test that wants a dead holder whose kernel
// lock is free writes the lock's bytes by hand, or closes the handle.
type IdentityProcess struct {
	Process
	ns uint64
}

var _ lockspec.IdentityHost = (*IdentityProcess)(nil)

// SpawnIn starts a new live process on the machine in pid namespace ns (0:
// a system without pid namespaces) and returns its host view, a
// lockspec.IdentityHost. Pids are unique across the machine's namespaces.
func (m *Machine) SpawnIn(ns uint64) *IdentityProcess {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &IdentityProcess{Process: Process{m: m, pid: m.newPID(ns)}, ns: ns}
}

// Alive reports whether pid is a live process of the machine in p's pid
// namespace.
func (p *IdentityProcess) Alive(pid int) bool {
	m := p.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked[pid]++
	return m.alive[pid] && m.ns[pid] == p.ns
}

// Self returns the process's identity: the machine's boot id now, its pid
// namespace and its start time.
func (p *IdentityProcess) Self() lockspec.Identity {
	m := p.m
	m.mu.Lock()
	defer m.mu.Unlock()
	return lockspec.Identity{Boot: m.boot, PIDNamespace: p.ns, StartTime: m.start[p.pid]}
}

// StartTime returns the start time of pid when it is a live process of p's
// pid namespace.
func (p *IdentityProcess) StartTime(pid int) (uint64, bool) {
	m := p.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.alive[pid] || m.ns[pid] != p.ns {
		return 0, false
	}
	return m.start[pid], true
}

// Namespace returns the process's pid namespace.
func (p *IdentityProcess) Namespace() uint64 { return p.ns }

// Reuse gives pid to a new live process of the same pid namespace: alive,
// with a start time it never had (a reused pid, to every judge).
func (m *Machine) Reuse(pid int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextStart++
	m.alive[pid] = true
	m.start[pid] = m.nextStart
}

// SpawnReusing starts a new live process in pid namespace ns that takes
// pid, a pid an earlier process had (alive or dead, of this boot or an
// earlier one): a reused pid, with a start time it never had, to every
// judge. It returns the new process's host view.
func (m *Machine) SpawnReusing(ns uint64, pid int) *IdentityProcess {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextStart++
	m.alive[pid] = true
	m.start[pid] = m.nextStart
	m.ns[pid] = ns
	return &IdentityProcess{Process: Process{m: m, pid: pid}, ns: ns}
}

// SpawnTwin starts a new live process in pid namespace ns that takes pid
// with the start time the earlier process of that pid had: to every judge
// but the boot id, that same process (as a boot that starts its processes
// in the same order, at the same ticks, may give). It returns the new
// process's host view.
func (m *Machine) SpawnTwin(ns uint64, pid int) *IdentityProcess {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.alive[pid] = true
	m.ns[pid] = ns
	return &IdentityProcess{Process: Process{m: m, pid: pid}, ns: ns}
}

// StartTime returns the start time the machine gives pid (0 for a pid
// never spawned), whatever its namespace and whether or not it is alive.
func (m *Machine) StartTime(pid int) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.start[pid]
}

// Boot returns the machine's boot id, as its IdentityProcesses report it.
func (m *Machine) Boot() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.boot
}

// SetBoot sets the machine's boot id ("" for a machine that does not know
// it): a judge whose host runs in a real process gives the real boot id
// here, so that the real holders' locks are of its boot.
func (m *Machine) SetBoot(boot string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.boot = boot
}

// bootOf makes a lowercase UUID from hostname.
func bootOf(hostname string) string {
	s := sha256.Sum256([]byte("boot " + hostname))
	return fmt.Sprintf("%x-%x-%x-%x-%x", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16])
}
