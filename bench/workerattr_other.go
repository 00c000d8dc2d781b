//go:build !linux

package main

import "syscall"

// workerAttr is nil: only Linux can make a worker die with the harness
// (elsewhere an interrupted run's workers finish their updates and exit).
func workerAttr() *syscall.SysProcAttr { return nil }
