//go:build !unix

package hpview

// clearUmask does nothing: there is no umask.
func clearUmask() {}
