//go:build !unix

package hackpadfs_test

func clearUmask() {}
