// Package locktest holds test doubles for the locking package: a fake host
// whose "processes" are plain values (so goroutines can play several
// processes of one host, or of several hosts), and helpers to get real dead
// and live pids of this machine.
package locktest

import (
	"sync"

	"github.com/pa-toolkit/pa/locking"
)

// Machine is a fake host: a hostname and a set of pids, each alive or dead.
// It is safe for concurrent use. Process returns a locking.Host for one pid
// of it.
type Machine struct {
	name string

	mu      sync.Mutex
	alive   map[int]bool
	asked   map[int]int
	nextPID int
}

// NewMachine returns a fake host called hostname with no processes.
func NewMachine(hostname string) *Machine {
	return &Machine{name: hostname, alive: map[int]bool{}, asked: map[int]int{}, nextPID: 1000}
}

// Spawn starts a new live process on the machine and returns its host view.
func (m *Machine) Spawn() *Process {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextPID++
	m.alive[m.nextPID] = true
	return &Process{m: m, pid: m.nextPID}
}

// Kill marks pid dead: from now on Alive(pid) is false.
func (m *Machine) Kill(pid int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.alive[pid] = false
}

// Revive marks pid alive again (a reused pid).
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

// Process is one fake process of a Machine; it implements locking.Host.
type Process struct {
	m   *Machine
	pid int
}

var _ locking.Host = (*Process)(nil)

// Hostname returns the machine's hostname.
func (p *Process) Hostname() string { return p.m.name }

// PID returns the process's fake pid.
func (p *Process) PID() int { return p.pid }

// Alive reports whether pid is a live process of the machine.
func (p *Process) Alive(pid int) bool { return p.m.isAlive(pid) }

// Kill marks this process dead.
func (p *Process) Kill() { p.m.Kill(p.pid) }
