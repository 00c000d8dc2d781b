package main

import (
	"golang.org/x/sys/unix"
)

// volumeOf asks statfs for the volume that holds dir.
func volumeOf(dir string) volume {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return volume{}
	}
	return volume{
		Type:       unix.ByteSliceToString(st.Fstypename[:]),
		Source:     unix.ByteSliceToString(st.Mntfromname[:]),
		MountPoint: unix.ByteSliceToString(st.Mntonname[:]),
	}
}
