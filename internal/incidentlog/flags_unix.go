//go:build unix

package incidentlog

import (
	"os"
	"syscall"
)

// AppendFlags are the os.OpenFile flags of [Append]: read-write (its last
// byte is read: tornTail), append, create; O_NONBLOCK keeps a FIFO put in
// its place from blocking the open.
const AppendFlags = os.O_RDWR | os.O_APPEND | os.O_CREATE | syscall.O_NONBLOCK
