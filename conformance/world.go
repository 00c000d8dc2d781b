package conformance

import (
	"os"
	"testing"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// world is the host a case's processes run on: the real one (this process,
// and real processes of this machine that are alive or dead), or a fake
// machine whose processes are goroutines of this one (RunFS). A case asks
// its site for pids and hosts, never the OS, so that the rows that need no
// real process run in both.
type world interface {
	// hostname is this host's name, as its locks record it.
	hostname() string
	// me is the locking.Host of this process's writers: nil (the real
	// host) or a fake process.
	me() locking.Host
	// myPID is the pid of this process's writers.
	myPID() int
	// livePID is the pid of another process of this host that stays alive
	// until the test ends.
	livePID(t *testing.T) int
	// newProcess starts a process of this host at this call and returns
	// its pid; it stays alive until the test ends. A lock written before
	// the call, naming that pid, is a reused pid's lock.
	newProcess(t *testing.T) int
	// deadPID is the pid of a process of this host that has exited.
	deadPID(t *testing.T) int
}

// realWorld is this machine.
type realWorld struct{}

func (realWorld) hostname() string         { return hostname() }
func (realWorld) me() locking.Host         { return nil }
func (realWorld) myPID() int               { return os.Getpid() }
func (realWorld) livePID(t *testing.T) int { return locktest.LivePID(t) }
func (realWorld) deadPID(t *testing.T) int { return locktest.DeadPID(t) }

// newProcess starts a fresh child (locktest.LivePID starts one a call).
func (realWorld) newProcess(t *testing.T) int { return locktest.LivePID(t) }

// fakeWorld is a fake machine: this process's writers are one of its
// processes; a live pid is another, a dead pid one that was killed.
type fakeWorld struct {
	m    *locktest.Machine
	self *locktest.Process
}

// fakeHostname is the fake machine's name: not this machine's, so that a
// lock of the real host would read as another host's.
const fakeHostname = "conformance-fake-host"

func newFakeWorld() *fakeWorld {
	m := locktest.NewMachine(fakeHostname)
	return &fakeWorld{m: m, self: m.Spawn()}
}

func (w *fakeWorld) hostname() string          { return w.m.Hostname() }
func (w *fakeWorld) me() locking.Host          { return w.self }
func (w *fakeWorld) myPID() int                { return w.self.PID() }
func (w *fakeWorld) livePID(*testing.T) int    { return w.m.Spawn().PID() }
func (w *fakeWorld) newProcess(*testing.T) int { return w.m.Spawn().PID() }
func (w *fakeWorld) deadPID(*testing.T) int {
	p := w.m.Spawn()
	p.Kill()
	return p.PID()
}
