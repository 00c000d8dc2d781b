//go:build !unix

package vfs

func keyOf(any) (FileKey, bool) { return FileKey{}, false }
