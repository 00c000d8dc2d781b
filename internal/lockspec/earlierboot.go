package lockspec

import "slices"

// Why: after a power cut, the processes of the new boot take pids again
// from the bottom, so a temp file that a writer of the earlier boot left
// (its commit cut off) can name a pid a live process has now: judged by
// its pid alone it is a live writer's, and the restore of a guarded file
// that the cut took from inside its rename refuses it for as long as that
// process lives (conformance/powercut, its reused-pids runs, found it).
//
// Only a holder writes a temp file of the guarded file or of a file it
// writes behind the fence (the board). A lock of an earlier boot at the
// lock name means no process of this boot has held the lock since that
// boot began: the name changed to no one else's. So when an acquisition
// breaks such a lock, every temp file named with this host and the broken
// holder's pid was written by that holder, or by a holder before it of
// that boot or an earlier one: a dead process, whatever the pid means
// today.

// noteEarlierBoot remembers, for the hold the acquisition makes, the pid
// of held when held is a lock of this host of an earlier boot that the
// acquisition has just broken (spec: The one automatic break; row R53).
func (h *Hold) noteEarlierBoot(held Holder) {
	// A lock broken is this host's (another host's is never judged dead),
	// so its boot alone says whether it is of an earlier boot.
	if self := h.e.selfIdentity(); held.Identity.Boot != "" && self.Boot != "" && held.Identity.Boot != self.Boot {
		h.earlierBoot = append(h.earlierBoot, held.PID)
	}
}

// tempOwnerDead reports whether o, the owner of a temp file as its name
// records it, is provably dead: by its pid, as the sweep judges (ownerDead),
// or as a broken holder of an earlier boot (noteEarlierBoot).
func (h *Hold) tempOwnerDead(o owner, n names) bool {
	if h.e.ownerDead(o, n) {
		return true
	}
	return o.hostHash == n.host && slices.Contains(h.earlierBoot, o.pid)
}
