//go:build windows

package locking

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has no pid namespaces this package uses: PIDNamespace stays 0
// (not recorded). The values come from the system, for this process.
//
// Boot is KUSER_SHARED_DATA.BootId (windowsBoot): the boot sequence number
// that the OS loader increments for each boot and saves (bootstat.dat),
// and that the kernel stores in the page it shares with every process
// before the first one starts. It is one value for the whole of a boot and
// for every process of it (the page is one, and read-only to user mode;
// process-isolated containers share the host's kernel), it is kept through
// sleep and hibernation (the processes are too), and no clock enters it.
// A boot that gets the value of an earlier one (a loader that cannot save
// the counter, a restored disk image, a Hyper-V container, which boots
// with 1) only takes "another boot" away from the judgement, never makes a
// live holder look dead. Rejected: a boot time (now minus uptime, or the
// kernel's boot time) moves with clock changes; the registry value
// PrefetchParameters\BootId is written by the system at a moment nothing
// documents, so a process started before that write could read the
// previous boot's value while a later one reads the new, and break its
// live lock as "an earlier boot".
//
// StartTime is the creation time that GetProcessTimes reports: a FILETIME
// (100 ns intervals since 1601-01-01 UTC) that the kernel stamped when the
// process was made and keeps unchanged while it lives.
var windowsSelf struct {
	once sync.Once
	id   Identity
}

// kuserBootID is the address of KUSER_SHARED_DATA.BootId (a ULONG) in
// every process: the page is at 0x7ffe0000 in user mode (the Go runtime
// reads its clocks there too), and BootId at offset 0x2c4 of a layout that
// ntddk.h freezes.
const kuserBootID = 0x7ffe0000 + 0x2c4

func (h *osHost) Self() Identity {
	windowsSelf.once.Do(func() {
		windowsSelf.id.Boot = windowsBoot(readBootID())
		windowsSelf.id.StartTime, _ = processStartTime(windows.CurrentProcess())
	})
	return windowsSelf.id
}

// readBootID reads KUSER_SHARED_DATA.BootId of this process's own page,
// through ReadProcessMemory, which fails (0: not known) where the page is
// not mapped rather than faulting; 0 also where the system has no such
// field.
func readBootID() uint32 {
	var id uint32
	var n uintptr
	err := windows.ReadProcessMemory(windows.CurrentProcess(), kuserBootID,
		(*byte)(unsafe.Pointer(&id)), unsafe.Sizeof(id), &n)
	if err != nil || n != unsafe.Sizeof(id) {
		return 0
	}
	return id
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
