//go:build unix

package kernel

import (
	"os"
	"syscall"
)

// appendFlags open the incident log for an append; O_NONBLOCK keeps a FIFO
// put in its place from blocking the open.
const appendFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE | syscall.O_NONBLOCK
