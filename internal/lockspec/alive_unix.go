//go:build unix

package lockspec

import (
	"errors"

	"golang.org/x/sys/unix"
)

// processAlive is kill(pid, 0): success or EPERM is alive, every other
// error (ESRCH above all) is dead.
func processAlive(pid int) bool {
	if pid <= 0 || pid > maxPID {
		return true // never asked: such a pid is judged unreadable first
	}
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
