package vfs

import (
	"io/fs"
	"strings"
)

// ReadDirPrefix lists the entries of dir whose names begin with one of
// prefixes, sorted by name, nil when none does: [FS.ReadDir] and
// [FilterPrefix]. The lock lists its folder so at every acquire (the sweep)
// and after taking a claim. Errors are ReadDir's.
func ReadDirPrefix(fsys FS, dir string, prefixes []string) ([]fs.DirEntry, error) {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	return FilterPrefix(entries, prefixes), nil
}

// FilterPrefix keeps, in place and in order, the entries whose names begin
// with one of prefixes; nil when none does.
func FilterPrefix(entries []fs.DirEntry, prefixes []string) []fs.DirEntry {
	kept := entries[:0]
	for _, de := range entries {
		if HasPrefix(de.Name(), prefixes) {
			kept = append(kept, de)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// HasPrefix reports whether name begins with one of prefixes.
func HasPrefix(name string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
