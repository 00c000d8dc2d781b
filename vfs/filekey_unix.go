//go:build unix

package vfs

import "syscall"

func keyOf(sys any) (FileKey, bool) {
	st, ok := sys.(*syscall.Stat_t)
	if !ok || st == nil {
		return FileKey{}, false
	}
	return FileKey{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true //nolint:unconvert // Dev and Ino differ in type across systems
}
