package lockspec

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
)

// procIdentity reads this process's identity from /proc once. The pid
// namespace comes from /proc/self/ns/pid; the start times only from a /proc
// of this process's own pid namespace (its "self" is this process's pid),
// since a /proc mounted by another namespace numbers the pids its own way.
type procIdentity struct {
	once    sync.Once
	self    Identity
	ownProc bool
}

var theProc procIdentity

func (p *procIdentity) load() {
	p.once.Do(func() {
		if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
			p.self.Boot = strings.TrimSpace(string(b))
		}
		if l, err := os.Readlink("/proc/self/ns/pid"); err == nil {
			p.self.PIDNamespace = parseNamespaceLink(l)
		}
		if l, err := os.Readlink("/proc/self"); err == nil && l == strconv.Itoa(os.Getpid()) {
			p.ownProc = true
			p.self.StartTime, _ = readStartTime(os.Getpid())
		}
	})
}

// parseNamespaceLink reads the inode of a namespace link, "pid:[4026531836]";
// 0 when it is not of that shape.
func parseNamespaceLink(l string) uint64 {
	s, ok := strings.CutPrefix(l, "pid:[")
	if !ok {
		return 0
	}
	s, ok = strings.CutSuffix(s, "]")
	if !ok {
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// readStartTime reads field 22 of /proc/<pid>/stat, the start time in clock
// ticks since boot.
func readStartTime(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatStartTime(b)
}

// parseStatStartTime reads field 22 of a /proc/<pid>/stat line. The command
// name (field 2) is in parentheses and may hold spaces and parentheses, so
// the fields are counted from after the last ')': field 3 is the first.
func parseStatStartTime(b []byte) (uint64, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3
	if len(fields) <= startField {
		return 0, false
	}
	n, err := strconv.ParseUint(fields[startField], 10, 64)
	if err != nil || n == 0 {
		return 0, false
	}
	return n, true
}

func (h *osHost) Self() Identity {
	theProc.load()
	return theProc.self
}

func (h *osHost) StartTime(pid int) (uint64, bool) {
	theProc.load()
	if !theProc.ownProc || pid <= 0 || pid > maxPID {
		return 0, false
	}
	return readStartTime(pid)
}
