package lockspec

import (
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// macOS has no pid namespaces: PIDNamespace stays 0 (not recorded).
var darwinSelf struct {
	once sync.Once
	id   Identity
}

func (h *osHost) Self() Identity {
	darwinSelf.once.Do(func() {
		if s, err := unix.Sysctl("kern.bootsessionuuid"); err == nil {
			darwinSelf.id.Boot = strings.ToLower(strings.TrimSpace(s))
		}
		darwinSelf.id.StartTime, _ = h.StartTime(unix.Getpid())
	})
	return darwinSelf.id
}

// StartTime is the process's start (kinfo_proc's p_starttime) in
// microseconds since the epoch.
func (h *osHost) StartTime(pid int) (uint64, bool) {
	if pid <= 0 || pid > maxPID {
		return 0, false
	}
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return 0, false
	}
	tv := kp.Proc.P_starttime
	us := uint64(tv.Sec)*1e6 + uint64(tv.Usec)
	return us, us != 0
}
