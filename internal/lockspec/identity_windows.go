//go:build windows

package lockspec

import (
	"sync"

	"golang.org/x/sys/windows"
)

// Windows has no pid namespaces this package uses: PIDNamespace stays 0
// (not recorded). The values come from the system, for this process.
//
// Boot is not recorded (""). StartTime already tells a pid reused after a
// reboot from its earlier owner, since a FILETIME is absolute, and no
// value of the system is known to stay one for the whole of a boot that
// must never read as another while its processes live: the boot counter of
// KUSER_SHARED_DATA (BootId) is not documented through fast startup's
// hibernated kernel session, whose services keep running; a boot time
// moves when the clock is set; the registry's PrefetchParameters\BootId is
// written at a moment nothing documents. A wrong "another boot" would
// break a live lock (where no kernel lock is claimed, as on FAT and
// exFAT), so none is given.
//
// StartTime is the creation time that GetProcessTimes reports: a FILETIME
// (100 ns intervals since 1601-01-01 UTC) that the kernel stamped when the
// process was made and keeps unchanged while it lives.
var windowsSelf struct {
	once sync.Once
	id   Identity
}

func (h *osHost) Self() Identity {
	windowsSelf.once.Do(func() {
		windowsSelf.id.StartTime, _ = processStartTime(windows.CurrentProcess())
	})
	return windowsSelf.id
}

// StartTime is the process's creation time (GetProcessTimes), opened with
// PROCESS_QUERY_LIMITED_INFORMATION; ok is false when the process cannot
// be opened (gone, or access denied) or its times read.
func (h *osHost) StartTime(pid int) (uint64, bool) {
	if pid <= 0 || pid > maxPID {
		return 0, false
	}
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, false
	}
	defer windows.CloseHandle(p)
	return processStartTime(p)
}

// processStartTime reads the creation time of the process p is a handle
// of, as fileTimeValue; ok is false when it cannot be read or is 0.
func processStartTime(p windows.Handle) (uint64, bool) {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(p, &created, &exited, &kernel, &user); err != nil {
		return 0, false
	}
	v := fileTimeValue(created.HighDateTime, created.LowDateTime)
	return v, v != 0
}
