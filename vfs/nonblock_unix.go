//go:build unix

package vfs

import "syscall"

// ReadFlags are the flags [ReadFile] opens a file with: read-only and
// non-blocking, so that opening a FIFO put where a file was expected never
// waits for a writer.
const ReadFlags = syscall.O_RDONLY | syscall.O_NONBLOCK
