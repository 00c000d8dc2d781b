package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// fsMagic names the statfs f_type magic numbers of the file systems a
// benchmark may run on (linux/magic.h).
var fsMagic = map[int64]string{
	0xef53:     "ext2/ext3/ext4",
	0x01021994: "tmpfs",
	0x858458f6: "ramfs",
	0x58465342: "xfs",
	0x9123683e: "btrfs",
	0x2fc12fc1: "zfs",
	0xf2f52010: "f2fs",
	0x794c7630: "overlayfs",
	0x65735546: "fuse",
	0x6969:     "nfs",
	0xff534d42: "cifs",
	0x2011bab0: "exfat",
	0x4d44:     "vfat",
	0x7366746e: "ntfs3",
	0x5346544e: "ntfs",
}

// fsType returns the file system of dir from statfs(2), with the type its
// mount has in /proc/self/mountinfo (statfs cannot tell ext4 from ext2),
// and a short name: the mount's type, or statfs's name.
func fsType(dir string) (long, short string, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "", "", fmt.Errorf("statfs %s: %w", dir, err)
	}
	magic := int64(st.Type) & 0xffffffff
	name, ok := fsMagic[magic]
	if !ok {
		name = "unknown"
	}
	long, short = fmt.Sprintf("%s (statfs magic %#x", name, magic), name
	if mt := mountType(dir); mt != "" {
		long, short = long+"; mounted as "+mt, mt
	}
	return long + ")", short, nil
}

// mountType is the file-system type of the mount that holds dir: the
// longest mount point in /proc/self/mountinfo that is dir or a parent of
// it. It returns "" when it cannot tell.
func mountType(dir string) string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	best, bestType := "", ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - type source super
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, f := range fields {
			if f == "-" {
				sep = i
				break
			}
		}
		if len(fields) < 5 || sep < 0 || sep+1 >= len(fields) {
			continue
		}
		mp := unescapeMount(fields[4])
		if within(real, mp) && len(mp) >= len(best) {
			best, bestType = mp, fields[sep+1]
		}
	}
	return bestType
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return dir == "/" || path == dir || strings.HasPrefix(path, dir+"/")
}

// unescapeMount undoes the octal escapes (\040 for a space) of mount points
// in /proc's mount tables.
func unescapeMount(s string) string {
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}

// findTmpfs returns a writable tmpfs mount from /proc/mounts, /dev/shm
// first, or "" and why there is none.
func findTmpfs() (string, string) {
	f, err := os.Open("/proc/mounts")
	if err != nil {
		return "", fmt.Sprintf("cannot read /proc/mounts: %v", err)
	}
	defer f.Close()
	var found []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || fields[2] != "tmpfs" {
			continue
		}
		if !strings.Contains(","+fields[3]+",", ",rw,") {
			continue
		}
		mp := unescapeMount(fields[1])
		if strings.HasPrefix(mp, "/sys") || strings.HasPrefix(mp, "/proc") {
			continue
		}
		if mp == "/dev/shm" {
			found = append([]string{mp}, found...)
		} else {
			found = append(found, mp)
		}
	}
	for _, mp := range found {
		d, err := os.MkdirTemp(mp, "pa-bench-probe-")
		if err == nil {
			_ = os.Remove(d)
			return mp, ""
		}
	}
	if len(found) > 0 {
		return "", "no tmpfs in /proc/mounts is writable here (" + strings.Join(found, ", ") + ")"
	}
	return "", "no tmpfs mounted (/proc/mounts)"
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// kernel is uname's system and release.
func kernel() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
