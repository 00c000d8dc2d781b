package lockspec

import (
	"path"

	"github.com/pa-toolkit/pa/vfs"
)

// sweepTemps removes the temp files of target (target.tmp-<host>-<pid>-
// <attempt>, the names [Hold.WriteFenced] writes) whose owner is on this
// host and provably dead, judged as the sweep judges the names beside the
// lock (ownerDead, removeLeftover), or a holder of an earlier boot whose
// lock the acquisition broke (tempOwnerDead). WriteFenced calls it under
// the hold, before it writes target: such a file (the board's) is beside
// target, not beside the lock, so the acquire's sweep never sees it, and a
// writer killed or cut off by a power cut between its create and its
// rename would leave it there for good (conformance/powercut). Like the
// sweep, it never fails the write and reports no step. Its listing also
// tells the hold whether target is maybe listed twice (doubled.go).
func (h *Hold) sweepTemps(target string) {
	e, fsys := h.e, h.fsys
	t := newNames(target, HostHash(e.host.Hostname()), e.host.PID())
	// Its own broken names too: removeLeftover moves a temp file it holds
	// the kernel lock of to target.lock.broken-<host>-<pid>-<attempt>
	// before it removes it, and no other sweep lists that folder.
	all, err := fsys.ReadDir(t.dir)
	h.noteListing(target, vfs.CountNamed(all, path.Base(target)), err) // the write removes its extra entries (doubled.go)
	if err != nil {
		return
	}
	entries := vfs.FilterPrefix(all, []string{t.tempP, t.keepP, t.brokenP})
	for _, de := range entries {
		if de.IsDir() {
			continue
		}
		kind, o := t.classify(de.Name())
		if kind != ownerInName || !h.tempOwnerDead(o, t) {
			continue
		}
		e.removeLeftover(fsys, t, path.Join(t.dir, de.Name()), noStep)
	}
}
