package vfs

import (
	"io/fs"
	"strings"
)

// PrefixDirFS is an [FS] that can list only the names of a directory that
// begin with one of some prefixes, in no particular order, without a
// stat, a sort or an allocation for any other name. The lock lists its
// folder so at every acquire (the sweep) and after taking a claim: a folder
// with thousands of unrelated files stays cheap to list.
type PrefixDirFS interface {
	FS
	// ReadDirPrefix lists the entries of the directory dir whose names
	// begin with one of prefixes, in no particular order; nil when none
	// does. A listing taken after a create has completed shows that file.
	// Errors are *fs.PathError naming dir.
	ReadDirPrefix(dir string, prefixes []string) ([]fs.DirEntry, error)
}

// ReadDirPrefix lists the entries of dir whose names begin with one of
// prefixes, in no particular order, through fsys's [PrefixDirFS], or by
// [FS.ReadDir] and a filter when fsys lacks it. Errors are ReadDir's.
func ReadDirPrefix(fsys FS, dir string, prefixes []string) ([]fs.DirEntry, error) {
	if p, ok := fsys.(PrefixDirFS); ok {
		return p.ReadDirPrefix(dir, prefixes)
	}
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
