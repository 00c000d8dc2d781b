//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

// ownerUID is the uid of the owner of the file fi describes, from the stat
// data its Sys method carries.
func ownerUID(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, false
	}
	return int(st.Uid), true
}
