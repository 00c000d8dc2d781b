package lockspec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
// finds one (the first in directory order after a remount; the kernel
// keeps what it found in its dentry cache), and once that entry is
// replaced, or removed and the folder changed since, a lookup finds the
// other. A commit over the name while it is doubled replaces one entry and
// leaves the other, which then hides the commit (after a remount, or
// whenever the dentry cache forgets it), with every record the commit
// reported (conformance/powercut, exFAT).
//
// Every copy holds every change reported: the cut was inside a rename
// whose folder sync had not returned, so no writer of the name reported
// anything since that folder's last sync. What readers were shown is the
// copy lookups find (`pa dispatch list` reads without the lock); that
// copy is the one kept, so that no dispatch id a reader saw is given
// again. A hold settles a doubled name before anything of it reads the
// name, and the settle is a commit of that copy:
//
//   - the guarded file (the spawn-log), right after the acquire
//     (settleGuarded): the copy lookups find is read and committed over
//     the name as any commit is, but through a keep file (commitWhole:
//     name.keep-<host>-<pid>-<attempt>, which a restore takes whole, so
//     that a second cut inside this rename costs no record); between the
//     fence and the rename, the name's entries are removed one at a time
//     until the folder lists it once (removeExtraEntries), and the rename
//     then replaces the last one; the folder sync makes it durable. Every
//     read of the hold finds that one copy. A commit (rather than only the
//     removal) because a lookup right after an unlink may not find the
//     entry left: Linux's exFAT keeps the unlinked name's negative dentry
//     valid until the folder changes, for every lookup but a create's and
//     a rename target's; the rename's target lookup always looks again,
//     and a removal that finds nothing while the folder lists the name
//     changes the folder first (touchFolder). Once an entry went, the keep
//     file is never dropped: the rename is tried even when a later listing
//     fails, and a rename that fails leaves it. A copy found that the
//     Restorer (when set) does not take whole is not kept: nothing is
//     removed, the hold fails;
//   - another file written under the hold ([Hold.WriteFenced]: the
//     board) has its extra entries removed the same way between that
//     write's fence and its rename; what a caller read of it before is a
//     copy it writes over, never a record it reports.
//
// It costs nothing when no name is doubled: the hold learns of one from a
// listing of the folder it makes anyway (the acquire's sweep for the
// guarded file, sweepTemps for another file). A name listed once then is
// never listed twice later in the same boot: only a power cut makes one. A
// listing that fails tells nothing; on a volume that refused link() (the
// class exFAT is in: the only volumes whose folders can list a name twice
// have no hard links) the hold then lists again before it reads or writes
// the name, and fails if it cannot; where link() works, a name is never
// doubled and a folder that cannot be listed is no error.
//
// Not covered: a writer that does not do this (locking/kernel's Update);
// a settle whose rename fails after its removal, or that is killed there,
// its keep file then swept once its owner is gone, which leaves the other
// copy (it too holds every reported record, but not always what readers
// were shown); two holders at once (a forced unlock of a live one) each
// removing an entry, and one killed before its rename.

// maxDoubledRemovals bounds the removals of one doubled name: a folder
// that still lists the name twice after them fails the hold's read or
// write. One cut leaves two entries; a cut inside the rename of a commit
// over a name already doubled (a writer that does not look) can leave
// three.
const maxDoubledRemovals = 4

// noteListing records what a listing of name's folder said of name: how
// many times it listed it, or err when the listing failed (not known).
func (h *Hold) noteListing(name string, listed int, err error) {
	switch {
	case err != nil:
		h.unlisted = appendOnce(h.unlisted, name)
	case listed > 1:
		h.doubled = appendOnce(h.doubled, name)
	}
}

func appendOnce(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
}

// mayBeDoubled reports whether name must be listed again before this hold
// reads or writes it: its folder listed it twice, or could not be listed
// on a volume that refused link() (a class whose folders can list a name
// twice).
func (h *Hold) mayBeDoubled(name string) bool {
	return slices.Contains(h.doubled, name) || h.cls != classLinks && slices.Contains(h.unlisted, name)
}

// forgetDoubled records that name's folder lists it once.
func (h *Hold) forgetDoubled(name string) {
	drop := func(s string) bool { return s == name }
	h.doubled = slices.DeleteFunc(h.doubled, drop)
	h.unlisted = slices.DeleteFunc(h.unlisted, drop)
}

// settleGuarded settles the guarded file right after the acquire, when it
// may be doubled: once its folder is seen to list it twice, the copy a
// lookup finds is committed over it (writeFenced, whose removal of the
// extra entries comes between its fence and its rename), so that every
// read of this hold, and every later one, finds that copy and no other, on
// the disk too. The observer of [SetOnDoubled] is told how many entries
// went. With a Restorer set ([SetRestore]: the spawn-log's), a copy it
// does not take whole is not kept: the settle fails, nothing removed.
// Errors: the folder cannot be listed, the copy cannot be read or is not
// whole, and
// the commit's (ErrLockLost when its fence refused: nothing removed; a
// folder sync that failed is its error, never a *NotSyncedError, which
// says the caller's own commit landed).
func (h *Hold) settleGuarded() error {
	name := h.n.target
	if !h.mayBeDoubled(name) {
		h.forgetDoubled(name)
		return nil
	}
	entries, err := h.fsys.ReadDir(h.n.dir)
	if err != nil {
		return cannotList(name, err)
	}
	if n := vfs.CountNamed(entries, path.Base(name)); n <= 1 {
		h.forgetDoubled(name)
		return nil
	}
	h.doubled = appendOnce(h.doubled, name)
	kept, _, err := vfs.ReadFile(h.fsys, name, 0)
	if err != nil {
		return fmt.Errorf("locking: %s is listed twice in its folder, and the copy a lookup finds cannot be read: %w", name, err)
	}
	if r := h.e.restore; r != nil {
		if _, _, ok := r(kept, true); !ok {
			// Not a whole file (a stale entry whose clusters the driver
			// freed and gave to another file, say): keeping it would drop
			// the other copy. Both stay for the operator.
			return fmt.Errorf("locking: %s is listed twice in its folder, and the copy a lookup finds is not a whole file of its kind (%d bytes): nothing was removed", name, len(kept))
		}
	}
	if err := h.writeFenced(name, [][]byte{kept}, commitWhole, nil); err != nil {
		var ns *NotSyncedError
		if errors.As(err, &ns) {
			err = ns.Err // the settle's own folder sync: no commit of the caller's landed
		}
		return fmt.Errorf("locking: %s is listed twice in its folder, and committing the copy a lookup finds failed: %w", name, err)
	}
	return nil
}

// removeExtraEntries removes entries of name, one at a time, until its
// folder lists it once (or not at all), when it may be doubled
// (mayBeDoubled); else it does nothing. It returns how many went. Call it
// behind the fence, right before a rename over name. An error (the folder
// cannot be listed, a removal fails, or the name is still listed twice
// after maxDoubledRemovals) means name must not be written.
func (h *Hold) removeExtraEntries(name string) (int, error) {
	if !h.mayBeDoubled(name) {
		return 0, nil
	}
	dir, base := path.Dir(name), path.Base(name)
	removed, touched := 0, false
	for {
		entries, err := h.fsys.ReadDir(dir)
		if err != nil {
			return removed, cannotList(name, err)
		}
		n := vfs.CountNamed(entries, base)
		if n <= 1 {
			break
		}
		if removed == maxDoubledRemovals {
			return removed, fmt.Errorf("locking: %s is still listed %d times in its folder after %d removals", name, n, removed)
		}
		err = h.fsys.Remove(name)
		if errors.Is(err, fs.ErrNotExist) && !touched {
			// Listed, and a lookup finds nothing: the negative dentry of
			// the entry removed last, which Linux's exFAT keeps valid until
			// the folder changes. Change it, and look again.
			if err = h.touchFolder(name); err == nil {
				touched = true
				continue
			}
		}
		if err != nil {
			return removed, fmt.Errorf("locking: %s is listed %d times in its folder, and removing an extra entry failed: %w", name, n, err)
		}
		removed, touched = removed+1, false
	}
	h.forgetDoubled(name)
	return removed, nil
}

// touchFolder changes the folder of name, so that a lookup there looks at
// its entries again: a temp file of this hold's is made and removed.
func (h *Hold) touchFolder(name string) error {
	attempt, err := h.e.newAttempt()
	if err != nil {
		return err
	}
	tmp := name + ".tmp-" + h.n.owned(attempt)
	f, err := h.fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	f.Close()
	return h.fsys.Remove(tmp)
}

// cannotList is the error of a hold that must list name's folder (the
// name may be doubled) and cannot.
func cannotList(name string, err error) error {
	return fmt.Errorf("locking: %s: its folder cannot be listed, so whether it lists the file twice (after a power cut on exFAT) is not known: %w", name, err)
}

// tellDoubled tells the observer of [SetOnDoubled] that removed extra
// entries of name went.
func (h *Hold) tellDoubled(name string, removed int) {
	if h.e.onDoubled != nil {
		h.e.onDoubled(name, removed)
	}
}
