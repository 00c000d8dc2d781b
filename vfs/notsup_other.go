//go:build !unix

package vfs

func isNotSupported(err error) bool { return false }
