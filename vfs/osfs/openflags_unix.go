//go:build unix

package osfs

import "syscall"

// withoutPollDance returns flag with O_NONBLOCK added where that changes
// nothing the caller sees: a read-only open (a FIFO opened so is read
// through Go's poller, which parks a read as a blocking one would, and
// its open no longer waits for a writer), and an exclusive create (it
// only ever makes a new regular file). Go opens a file without
// O_NONBLOCK with five system calls more than the open (fcntl to set
// O_NONBLOCK, epoll_ctl refused for a regular file or a directory, fcntl
// twice to clear it again); with it, one epoll_ctl. An uncontended update
// of the lock without hard links on tmpfs opened eleven files that way:
// 44 of its 170 system calls (bench/RESULTS.md, "Uncontended").
func withoutPollDance(flag int) int {
	switch {
	case flag&(syscall.O_WRONLY|syscall.O_RDWR) == 0,
		flag&(syscall.O_CREAT|syscall.O_EXCL) == syscall.O_CREAT|syscall.O_EXCL:
		return flag | syscall.O_NONBLOCK
	}
	return flag
}

// dirFlags open a parent directory for a *at system call, without the
// poll dance.
const dirFlags = syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_DIRECTORY
