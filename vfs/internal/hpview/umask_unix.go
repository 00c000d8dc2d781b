//go:build unix

package hpview

import "syscall"

// clearUmask sets the umask to 0.
func clearUmask() { syscall.Umask(0) }
