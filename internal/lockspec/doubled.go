package lockspec

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
)

// A doubled name is a guarded file's name that its folder lists more than
// once. No file system makes one while it runs; a power cut can, on exFAT:
// Linux's driver writes a rename over a name as the new entry, the old
// entry's removal and the replaced entry's removal, with no barrier, so a
// cut that landed the first and not the last leaves two entries of the
// name on the disk, each with a whole copy of the file. The next boot
// lists both; a lookup finds one (the first in directory order, or the
// one the driver's hint reaches first), and once that one is removed or
// replaced, a lookup finds the other. A commit over the name while it is
// doubled replaces one entry and leaves the other, which then hides the
// commit (after a remount, or whenever the dentry cache forgets it), with
// every record the commit reported (conformance/powercut, exFAT).
//
// Every copy holds every change reported: the cut was inside a rename
// whose folder sync had not returned, so no writer of the name reported
// anything since the last sync, and each copy is the file as of that sync
// or later. So a hold that finds its guarded name listed twice removes the
// name's entries, one at a time, until its folder lists it once, right
// before its commit's rename (behind the fence); the rename then replaces
// the last entry, and the commit, made from the copy the hold read, is the
// one copy left. The removals need no sync of their own: the commit's
// folder sync makes them durable with the rename, and a cut before it
// leaves a name listed twice again, or once.
//
// It costs nothing when no name is doubled: the hold learns of one from a
// listing of the folder it makes anyway (the acquire's sweep for the
// guarded file, sweepTemps for another file WriteFenced writes). A name
// listed once then is never listed twice later in the same boot: only a
// power cut makes one.

// maxDoubledRemovals bounds the removals of one doubled name: a folder
// that still lists the name twice after them makes the commit fail. One
// cut leaves two entries at most.
const maxDoubledRemovals = 4

// listedTwice reports whether entries name base more than once.
func listedTwice(entries []fs.DirEntry, base string) bool {
	return countListed(entries, base) > 1
}

// countListed returns how many of entries are named base.
func countListed(entries []fs.DirEntry, base string) int {
	n := 0
	for _, de := range entries {
		if de.Name() == base {
			n++
		}
	}
	return n
}

// noteDoubled records that the folder of name listed it more than once:
// its next commit in this hold removes the extra entries first
// (removeExtraEntries).
func (h *Hold) noteDoubled(name string) {
	if !slices.Contains(h.doubled, name) {
		h.doubled = append(h.doubled, name)
	}
}

// removeExtraEntries removes entries of name, one at a time, until its
// folder lists it once (or not at all), when this hold found it listed
// twice; else it does nothing. The commit's rename, right after, replaces
// the last one. The observer of [SetOnDoubled] is told how many went. An
// error (the folder cannot be listed, a removal fails, or the name is still
// listed twice after maxDoubledRemovals) means the commit must not go on.
func (h *Hold) removeExtraEntries(name string) error {
	if !slices.Contains(h.doubled, name) {
		return nil
	}
	dir, base := path.Dir(name), path.Base(name)
	removed := 0
	for {
		entries, err := h.fsys.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("locking: %s is listed twice in its folder, which cannot be listed again: %w", name, err)
		}
		n := countListed(entries, base)
		if n <= 1 {
			break
		}
		if removed == maxDoubledRemovals {
			return fmt.Errorf("locking: %s is still listed %d times in its folder after %d removals: nothing committed", name, n, removed)
		}
		if err := h.fsys.Remove(name); err != nil {
			return fmt.Errorf("locking: %s is listed %d times in its folder, and removing an extra entry failed: %w", name, n, err)
		}
		removed++
	}
	h.doubled = slices.DeleteFunc(h.doubled, func(s string) bool { return s == name })
	if removed > 0 && h.e.onDoubled != nil {
		h.e.onDoubled(name, removed)
	}
	return nil
}
