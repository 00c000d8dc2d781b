// Package locktest holds test doubles for the locking package: a fake host
// whose "processes" are plain values (so goroutines can play several
// processes of one host, or of several hosts), with or without an identity
// (boot, pid namespace, start time: identity.go), and helpers to get real
// dead and live pids of this machine.
package locktest

import (
	"sync"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// Machine is a fake host: a hostname, a boot id and a set of pids, each
// alive or dead, each with a start time and a pid namespace. It is safe for
// concurrent use. Spawn returns a lockspec.Host for one new pid of it, and
// SpawnIn a lockspec.IdentityHost.
type Machine struct {
	name string

	mu        sync.Mutex
	boot      string
	alive     map[int]bool
	asked     map[int]int
	start     map[int]uint64 // each pid's start time, as IdentityHost.StartTime says it
	ns        map[int]uint64 // each pid's pid namespace; 0 for Spawn's
	nextPID   int
	nextStart uint64
}

// NewMachine returns a fake host called hostname with no processes. Its
// boot id is a lowercase UUID made from the hostname (two Machines of one
// hostname are of one boot); SetBoot changes it.
func NewMachine(hostname string) *Machine {
	return &Machine{
		name: hostname, boot: bootOf(hostname),
		alive: map[int]bool{}, asked: map[int]int{}, start: map[int]uint64{}, ns: map[int]uint64{},
		nextPID: 1000, nextStart: 5000,
	}
}

// Spawn starts a new live process on the machine and returns its host view.
// It is a plain lockspec.Host, not a lockspec.IdentityHost: its locks are the
// spec's four fields, it takes no kernel locks and it judges every lock by
// the pid alone. Its pid is of namespace 0 (as SpawnIn(0) sees it).
func (m *Machine) Spawn() *Process {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &Process{m: m, pid: m.newPID(0)}
}

// newPID makes a new live pid of namespace ns; m.mu is held.
func (m *Machine) newPID(ns uint64) int {
	m.nextPID++
	m.nextStart++
	m.alive[m.nextPID] = true
	m.start[m.nextPID] = m.nextStart
	m.ns[m.nextPID] = ns
	return m.nextPID
}

// Kill marks pid dead: from now on Alive(pid) is false.
func (m *Machine) Kill(pid int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.alive[pid] = false
}

// Revive marks pid alive again, its start time unchanged: a reused pid to
// a judge that knows no start times (a Process), the same process to one
// that does (an IdentityProcess). Reuse is a reused pid to both.
func (m *Machine) Revive(pid int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.alive[pid] = true
}

// Asked returns how many times Alive was asked about pid.
func (m *Machine) Asked(pid int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.asked[pid]
}

// Hostname returns the machine's hostname.
func (m *Machine) Hostname() string { return m.name }

func (m *Machine) isAlive(pid int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked[pid]++
	return m.alive[pid] // a pid never spawned is dead
}

// Process is one fake process of a Machine; it implements lockspec.Host.
type Process struct {
	m   *Machine
	pid int
}

var _ lockspec.Host = (*Process)(nil)

// Hostname returns the machine's hostname.
func (p *Process) Hostname() string { return p.m.name }

// PID returns the process's fake pid.
func (p *Process) PID() int { return p.pid }

// Alive reports whether pid is a live process of the machine.
func (p *Process) Alive(pid int) bool { return p.m.isAlive(pid) }

// Kill marks this process dead.
func (p *Process) Kill() { p.m.Kill(p.pid) }
