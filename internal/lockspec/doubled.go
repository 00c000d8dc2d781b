package lockspec

import (
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/pa-toolkit/pa/vfs"
)

// A doubled name is a file's name that its folder lists more than once. No
// file system makes one while it runs; a power cut can, on exFAT: Linux's
// driver writes a rename over a name as the new entry, the old entry's
// removal and the replaced entry's removal, with no barrier, so a cut that
// landed the first and not the last leaves two entries of the name on the
// disk, each with a copy of the file. The next boot lists both; a lookup
// finds one (the first in directory order after a remount, else the one
// the driver's hint reaches first), and once that one is removed or
// replaced, a lookup finds the other. A commit over the name while it is
// doubled replaces one entry and leaves the other, which then hides the
// commit (after a remount, or whenever the dentry cache forgets it), with
// every record the commit reported (conformance/powercut, exFAT).
//
// Every copy holds every change reported: the cut was inside a rename
// whose folder sync had not returned, so no writer of the name reported
// anything since that folder's last sync, and each copy is the file as of
// that sync or later. That stays true only while nothing is reported from
// one copy that the other lacks: a hold that read one copy and reported
// from it (a board repair puts on the board the dispatches it read) must
// never see the other copy come back. So:
//
//   - the guarded file is settled at the acquire, before anything of the
//     hold reads it: behind the fence, its entries are removed one at a
//     time until its folder lists it once, and the folder is synced
//     (settleGuarded); every read of the hold then finds the one copy
//     left, on the disk too;
//   - another file written under the hold ([Hold.WriteFenced]: the board)
//     has its extra entries removed after the write's fence, right before
//     its rename (removeExtraEntries), which then replaces the last entry;
//     the rename's folder sync makes both durable. What a caller reads of
//     such a file before is a copy it writes over, never a record it
//     reports.
//
// It costs nothing when no name is doubled: the hold learns of one from a
// listing of the folder it makes anyway (the acquire's sweep for the
// guarded file, sweepTemps for another file). A name listed once then is
// never listed twice later in the same boot: only a power cut makes one. A
// listing that fails tells nothing, so the name is taken as maybe doubled:
// the hold lists the folder again before it reads or writes the name, and
// fails if it cannot.
//
// A writer that does not do this (locking/kernel's Update) can still leave
// a commit behind a stale copy; so can a hold killed between its removals
// and its folder sync, if a cut follows before any later sync of that
// folder.

// maxDoubledRemovals bounds the removals of one doubled name: a folder
// that still lists the name twice after them fails the hold's read or
// write. One cut leaves two entries; a cut inside the rename of a commit
// over a name already doubled (a writer that does not look) can leave
// three.
const maxDoubledRemovals = 4

// maybeDoubled reports whether a listing of a folder (entries, or err when
// it failed) leaves base possibly listed twice: listed more than once, or
// not known.
func maybeDoubled(entries []fs.DirEntry, err error, base string) bool {
	return err != nil || vfs.CountNamed(entries, base) > 1
}

// noteDoubled records that the folder of name may list it twice: the hold
// lists it again and removes the extra entries before it reads
// (settleGuarded) or writes it (removeExtraEntries).
func (h *Hold) noteDoubled(name string) {
	if !slices.Contains(h.doubled, name) {
		h.doubled = append(h.doubled, name)
	}
}

// settleGuarded settles the guarded file right after the acquire, when its
// sweep found it maybe doubled: behind the fence, the extra entries go
// (removeExtraEntries) and, when any went, the folder is synced, so that
// the copy every read of this hold finds is the only one, on the disk too.
// The observer of [SetOnDoubled] is told once they went. Errors: the
// fence's (ErrLockLost: nothing removed), removeExtraEntries', and the
// folder sync's.
func (h *Hold) settleGuarded() error {
	if !slices.Contains(h.doubled, h.n.target) {
		return nil
	}
	if err := h.Fence(); err != nil {
		return err
	}
	removed, err := h.removeExtraEntries(h.n.target)
	if err != nil {
		return err
	}
	if removed > 0 {
		if err := vfs.SyncDir(h.fsys, h.n.dir); err != nil {
			return fmt.Errorf("locking: %s: the folder sync after removing its extra entries: %w", h.n.target, err)
		}
		h.tellDoubled(h.n.target, removed)
	}
	return nil
}

// removeExtraEntries removes entries of name, one at a time, until its
// folder lists it once (or not at all), when this hold found it maybe
// doubled; else it does nothing. It returns how many went. Call it behind
// the fence. An error (the folder cannot be listed, a removal fails, or
// the name is still listed twice after maxDoubledRemovals) means name must
// be neither read nor written in this hold.
func (h *Hold) removeExtraEntries(name string) (int, error) {
	if !slices.Contains(h.doubled, name) {
		return 0, nil
	}
	dir, base := path.Dir(name), path.Base(name)
	removed := 0
	for {
		entries, err := h.fsys.ReadDir(dir)
		if err != nil {
			return removed, fmt.Errorf("locking: %s: its folder cannot be listed, so whether it lists the file twice (after a power cut on exFAT) is not known: %w", name, err)
		}
		n := vfs.CountNamed(entries, base)
		if n <= 1 {
			break
		}
		if removed == maxDoubledRemovals {
			return removed, fmt.Errorf("locking: %s is still listed %d times in its folder after %d removals", name, n, removed)
		}
		if err := h.fsys.Remove(name); err != nil {
			return removed, fmt.Errorf("locking: %s is listed %d times in its folder, and removing an extra entry failed: %w", name, n, err)
		}
		removed++
	}
	h.doubled = slices.DeleteFunc(h.doubled, func(s string) bool { return s == name })
	return removed, nil
}

// tellDoubled tells the observer of [SetOnDoubled] that removed extra
// entries of name went.
func (h *Hold) tellDoubled(name string, removed int) {
	if h.e.onDoubled != nil {
		h.e.onDoubled(name, removed)
	}
}
