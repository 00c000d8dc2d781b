package vfs

import "io/fs"

// CountNamed returns how many of entries, a folder's listing, are named
// base. A file system lists a name once; more than once only after a
// power cut inside an exFAT rename over it, which leaves the name's new
// entry and the one it replaced (the lock's defence: internal/lockspec,
// doubled.go; `pa board check` reports it).
func CountNamed(entries []fs.DirEntry, base string) int {
	n := 0
	for _, de := range entries {
		if de.Name() == base {
			n++
		}
	}
	return n
}
