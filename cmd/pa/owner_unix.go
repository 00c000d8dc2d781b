//go:build unix

package main

import (
	"io/fs"
	"os"
	"slices"
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

// dirWritable reports whether this process's effective user may add and
// remove files in the folder fi describes, by its mode bits (the owner's,
// the group's or the others', whichever apply to this user; no ACL).
func dirWritable(fi fs.FileInfo) (writable, known bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return false, false
	}
	const w, x = 0o2, 0o1
	shift := 0 // the others'
	switch {
	case int(st.Uid) == os.Geteuid():
		shift = 6
	case inGroup(int(st.Gid)):
		shift = 3
	}
	bits := uint32(fi.Mode().Perm()) >> shift
	return bits&w != 0 && bits&x != 0, true
}

// inGroup reports whether gid is this process's effective group or one of
// its supplementary groups.
func inGroup(gid int) bool {
	if gid == os.Getegid() {
		return true
	}
	groups, _ := os.Getgroups()
	return slices.Contains(groups, gid)
}
