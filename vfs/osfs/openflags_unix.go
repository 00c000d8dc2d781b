//go:build unix

package osfs

import "syscall"

// withoutPollDance returns flag with O_NONBLOCK added to an exclusive
// create, where it changes nothing the caller sees: it only ever makes a
// new regular file, whose reads and writes ignore the flag. Go opens a
// file without O_NONBLOCK with four system calls more than needed (fcntl
// to set O_NONBLOCK, epoll_ctl refused for a regular file, fcntl twice to
// clear it); with it, one epoll_ctl. Other opens keep their flags: a
// read-only open of a FIFO with O_NONBLOCK would no longer wait for a
// writer, and its first read would be EOF (the lock reads with
// vfs.ReadFlags, which asks for it). An uncontended update of the lock
// without hard links on tmpfs made three exclusive creates and opened
// eight directories that way: 44 of its 170 system calls (the directories
// are opened with O_NONBLOCK where they are opened: ReadDir, dirFlags,
// vfs.SyncDir).
func withoutPollDance(flag int) int {
	if flag&(syscall.O_CREAT|syscall.O_EXCL) == syscall.O_CREAT|syscall.O_EXCL {
		return flag | syscall.O_NONBLOCK
	}
	return flag
}

// dirFlags open a directory (to list it, or as the parent of a *at
// system call) without the poll dance; O_DIRECTORY makes sure a FIFO at
// the name is never opened.
const dirFlags = syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_DIRECTORY
