package lockspec

// Identity is what makes a pid one process of one boot (spec: The one
// automatic break, as docs/spawn-log-lock.md extends it in "Proof of
// death"). Every lock this package publishes records its holder's, and a
// judge compares it with its own: a pid means something only in its own
// pid namespace and boot, and a pid that answers is the holder only if it
// started when the holder did. A zero field is not known and decides
// nothing.
type Identity struct {
	// Boot names the boot of the machine, as a lowercase UUID (36
	// characters): Linux's /proc/sys/kernel/random/boot_id, macOS's
	// kern.bootsessionuuid; "" when unknown, and always on Windows, where
	// the absolute start time tells a reused pid apart and no boot value is
	// known to be safe (identity_windows.go).
	Boot string
	// PIDNamespace is the inode number of the process's pid namespace
	// (Linux: /proc/self/ns/pid); 0 when unknown or the system has none
	// (macOS, Windows).
	PIDNamespace uint64
	// StartTime is when the process started, in the system's own unit
	// (Linux: clock ticks since boot, field 22 of /proc/<pid>/stat; macOS:
	// microseconds since the epoch; Windows: the creation time of
	// GetProcessTimes, a FILETIME, in 100 ns intervals since 1601-01-01
	// UTC); 0 when unknown. Processes started in one tick share it: it
	// tells a reused pid from its earlier owner, not two processes apart.
	StartTime uint64
}

// IdentityHost is a [Host] that knows processes' identities. [OSHost] is
// one (Linux: /proc; macOS: sysctl; Windows: the page the kernel shares
// with every process, and GetProcessTimes; elsewhere an empty Identity). A
// Host that is not one publishes the spec's four-field lock and judges
// every lock by the pid alone, as the spec says.
type IdentityHost interface {
	Host
	// Self returns this process's identity.
	Self() Identity
	// StartTime returns the start time of pid in this process's pid
	// namespace, in Identity.StartTime's unit; ok is false when it cannot
	// be read (no such process, no /proc of this namespace).
	StartTime(pid int) (start uint64, ok bool)
}

// validBoot reports whether s is a boot id as Identity.Boot records one: a
// lowercase UUID, 8-4-4-4-12 hex digits. Anything else counts as not
// recorded (an absurd value never makes a lock easier to break).
func validBoot(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// selfIdentity returns e's host's identity, with every field that is not
// valid cleared; the zero Identity for a Host that is no IdentityHost.
func (e *env) selfIdentity() Identity {
	ih, ok := e.host.(IdentityHost)
	if !ok {
		return Identity{}
	}
	id := ih.Self()
	if !validBoot(id.Boot) {
		id.Boot = ""
	}
	return id
}

// startTimeOf is the host's StartTime of pid, or ok=false.
func (e *env) startTimeOf(pid int) (uint64, bool) {
	ih, ok := e.host.(IdentityHost)
	if !ok {
		return 0, false
	}
	st, ok := ih.StartTime(pid)
	return st, ok && st != 0
}
