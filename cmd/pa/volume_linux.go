package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// volumeOf reads /proc/self/mountinfo for the mount that holds dir: the
// longest mount point that is dir or a parent of it.
func volumeOf(dir string) volume {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return volume{}
	}
	defer f.Close()
	var best volume
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent maj:min root mountpoint options [optional...] - type source superoptions
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, fl := range fields {
			if fl == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+2 >= len(fields) {
			continue
		}
		mp := unescapeMount(fields[4])
		if !under(dir, mp) || len(mp) < len(best.MountPoint) {
			continue
		}
		best = volume{Type: fields[sep+1], Source: unescapeMount(fields[sep+2]), MountPoint: mp}
	}
	return best
}

// under reports whether dir is mp or inside it.
func under(dir, mp string) bool {
	return dir == mp || mp == "/" || strings.HasPrefix(dir, mp+"/")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
