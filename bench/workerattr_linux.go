package main

import "syscall"

// workerAttr makes a worker die with the harness (PR_SET_PDEATHSIG), so an
// interrupted run leaves no worker behind.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
