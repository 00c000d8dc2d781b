package lockspec

import (
	"os"
	"sync"
)

// Host is what the lock knows of the machine it runs on (spec: The one
// automatic break). Tests pass a fake one whose "processes" are goroutines.
type Host interface {
	// Hostname is written into every lock this process publishes and
	// compared with a lock's hostname: only a lock of this host (or with no
	// hostname) is ever judged by its pid.
	Hostname() string
	// PID is this process's pid, written into locks and names.
	PID() int
	// Alive reports whether pid may be alive in this process's pid
	// namespace: false only when the process is provably gone (kill(pid,
	// 0) fails with anything but EPERM). It is called only with 0 < pid <=
	// 2147483647, and only for a lock that records this pid namespace or
	// none (docs/spawn-log-lock.md, "Proof of death").
	Alive(pid int) bool
}

type osHost struct {
	once sync.Once
	name string
}

var theOSHost = &osHost{}

// OSHost returns the real host: os.Hostname (read once; "" if it fails), the
// process's own pid, and liveness by kill(pid, 0) on Unix (ESRCH and every
// error but EPERM is dead) or OpenProcess and GetExitCodeProcess on Windows
// (access denied reads as alive). It is an [IdentityHost] (Linux: /proc;
// macOS: sysctl; Windows: GetProcessTimes' start time, no boot;
// elsewhere an empty Identity),
// so its locks record their holder's identity and kernel lock.
func OSHost() Host { return theOSHost }

func (h *osHost) Hostname() string {
	h.once.Do(func() {
		h.name, _ = os.Hostname()
	})
	return h.name
}

func (h *osHost) PID() int { return os.Getpid() }

func (h *osHost) Alive(pid int) bool { return processAlive(pid) }
