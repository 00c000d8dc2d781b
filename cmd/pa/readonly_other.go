//go:build !windows

package main

// writeProtected is false here: EROFS says a read-only volume (readOnly).
func writeProtected(error) bool { return false }
