//go:build windows

package lockspec

import (
	"golang.org/x/sys/windows"
)

// processAlive opens the process and reads its exit code, judged by
// windowsAlive: a process that cannot be opened for lack of access reads as
// alive (as EPERM does on Unix); one that cannot be opened for any other
// reason, or has an exit code, is dead.
func processAlive(pid int) bool {
	if pid <= 0 || pid > maxPID {
		return true
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return windowsAlive(err, 0, nil)
	}
	defer windows.CloseHandle(h)
	var code uint32
	err = windows.GetExitCodeProcess(h, &code)
	return windowsAlive(nil, code, err)
}
