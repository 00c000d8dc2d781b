package lockspec

import "github.com/pa-toolkit/pa/vfs"

// removeHeld removes name, whose kernel lock this process holds through
// held, by moveAsideAndRemove. It reports whether the name was removed;
// where it was not, held is still open (the caller closes it).
func (e *env) removeHeld(fsys vfs.FS, n names, name string, held vfs.File) bool {
	removed, _ := e.moveAsideAndRemove(fsys, n, name, held)
	return removed
}

// moveAsideAndRemove removes name, a name beside the lock or a staged
// marker whose kernel lock this process holds through held: it moves the
// name to a broken name of this attempt's own while it still holds the
// lock, then closes held, then removes the moved name (a name removed
// while open would show as .fuse_hidden* on FUSE).
//
// The lock is held through the move because the judge that removes the
// name (a sweep to which the owner's pid is gone) may be of another pid
// namespace than a live owner that has just created the name and is about
// to take its kernel lock (createHeld): that owner waits for the lock, then
// finds its name gone (errNameLost) and makes another. Let go before the
// move, the lock would let that owner go on with a name about to be
// removed (for a staged marker, publish an empty directory).
//
// It reports whether the name was removed. Where it was not, held is
// still open, and the error is newAttempt's when no broken name could be
// drawn (nil when the move itself failed).
func (e *env) moveAsideAndRemove(fsys vfs.FS, n names, name string, held vfs.File) (bool, error) {
	attempt, err := e.newAttempt()
	if err != nil {
		return false, err
	}
	moved := n.broken(attempt)
	if err := fsys.Rename(name, moved); err != nil {
		return false, nil
	}
	held.Close()
	_ = fsys.Remove(moved)
	return true, nil
}
