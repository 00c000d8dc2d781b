package main

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// fsType returns the file system of dir from statfs(2)'s f_fstypename,
// and that name alone.
func fsType(dir string) (long, short string, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "", "", fmt.Errorf("statfs %s: %w", dir, err)
	}
	name := unix.ByteSliceToString(st.Fstypename[:])
	return name + " (statfs f_fstypename)", name, nil
}

// findTmpfs returns "": macOS has no tmpfs (a RAM disk would have to be
// made by hand), so the tmpfs measure is skipped there.
func findTmpfs() (string, string) {
	return "", "macOS has no tmpfs; the tmpfs measure needs Linux"
}

// cpuModel is sysctl machdep.cpu.brand_string.
func cpuModel() string {
	s, err := unix.Sysctl("machdep.cpu.brand_string")
	if err != nil {
		return "unknown"
	}
	return s
}

// kernel is uname's system and release.
func kernel() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
}

// loadAverage is not read on macOS.
func loadAverage() string { return "" }
