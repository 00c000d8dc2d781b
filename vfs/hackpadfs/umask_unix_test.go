//go:build unix

package hackpadfs_test

import "syscall"

func clearUmask() { syscall.Umask(0) }
