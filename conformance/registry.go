package conformance

import (
	"testing"

	"github.com/pa-toolkit/pa/locking"
)

// classSet is the columns a case proves.
type classSet int

const (
	both        classSet = iota // both columns
	linksOnly                   // the column with hard links
	nolinksOnly                 // the column without hard links
)

func (s classSet) list() []Class {
	switch s {
	case linksOnly:
		return []Class{Links}
	case nolinksOnly:
		return []Class{NoLinks}
	}
	return []Class{Links, NoLinks}
}

func (s classSet) has(c Class) bool {
	for _, x := range s.list() {
		if x == c {
			return true
		}
	}
	return false
}

// caseDef is one test of one row: it proves the row's cell on each column
// of classes, on the site it is given (a fresh folder on the volume under
// test, seen through the column's class).
type caseDef struct {
	row     string
	name    string
	classes classSet
	run     func(t *testing.T, s *site)
}

// casesOf returns the cases of row that prove its cell on class c.
func casesOf(row string, c Class) []caseDef {
	var out []caseDef
	for _, d := range registry {
		if d.row == row && d.classes.has(c) {
			out = append(out, d)
		}
	}
	return out
}

// registry is every case of the suite, by row: the one place that knows
// which test proves which cell. A row's cell on a column is proved when
// every case listed for it there passes.
var registry = []caseDef{
	{"R01", "taken-whole-and-released", both, freeLockTakenWhole},
	{"R02", "times-out-naming-holder", both, liveHolderTimesOut},
	{"R03", "never-broken-at-any-age", both, liveAtAnyAge},
	{"R03", "stalled-holder-keeps-lock", both, stalledHolderKeepsLock},
	{"R03", "pa-open-exits-2-naming-holder", both, openTimesOutNamingHolder},
	{"R04", "broken-at-once-with-hostname", both, deadHolderBroken(true)},
	{"R04", "broken-at-once-without-hostname", both, deadHolderBroken(false)},
	{"R05", "never-broken-timeout-names-it", both, unreadableNeverBroken},
	{"R05", "unlock-refuses-force-removes", both, unreadableUnlock},
	{"R06", "never-broken-pid-never-asked", both, otherHostNeverBroken},
	{"R07", "reused-pid-reads-alive", both, liveAtAnyAge},
	{"R08", "live-never-broken-age-from-later", both, skewedLiveNeverBroken},
	{"R08", "dead-broken-all-the-same", both, skewedDeadBroken},
	{"R08", "board-check-age-from-later", both, skewedBoardCheck},
	{"R09", "second-breaker-backs-off", both, twoBreakersNeverTogether},
	{"R09", "breaks-never-overlap", both, breakersAtOnceNeverOverlap},
	{"R10", "fresh-lock-left-alone", both, lateBreakerLeavesFreshLock(false)},
	{"R10", "fresh-lock-dead-at-confirm", both, lateBreakerLeavesFreshLock(true)},
	{"R11", "stalled-breaker-blocks-others", both, stalledBreakerBlocksOthers},
	{"R12", "pa-eight-opens-25-trials", both, eightOpensAgainstDeadLock},
	{"R13", "link-refused-falls-back", both, linkRefusedFallsBack},
	{"R13", "pa-link-refused-opens", both, linkRefusedOpens},
	{"R13", "link-enoent-is-no-fallback", both, linkENOENTNotAFallback},
	{"R14", "failed-publish-unlinks-nothing-else", both, failedPublishUnlinksNothingElse},
	{"R15", "stalled-releaser-removes-only-its-own", both, stalledReleaser},
	{"R16", "releaser-leaves-lock-in-fence-window", both, releaserInFenceWindow},
	{"R17", "stalled-sweeper-removes-only-judged", both, stalledSweeper},
	{"R18", "inspect-and-pa-unlock-no-lock", both, unlockNoLock},
	{"R18", "pa-unlock-usage-error-touches-nothing", both, unlockUsageErrorTouchesNothing},
	{"R19", "unlock-by-the-break-steps", both, unlockDeadHolderSteps},
	{"R19", "pa-unlock-dead-holder", both, paUnlockDeadHolder},
	{"R20", "refused-lock-byte-for-byte", both, unlockRefuses},
	{"R21", "pa-force-prints-then-removes", both, paForceRemoves},
	{"R21", "forced-holder-fenced-out-retries", both, forcedHolderFencedOut},
	{"R21", "changed-lock-removes-nothing", both, unlockChangedRemovesNothing},
	{"R21", "force-ignores-live-claims", both, forceIgnoresLiveClaims},
	{"R22", "release-puts-back-newer-lock", both, releasePutsBackNewerLock},
	{"R22", "put-back-never-replaces-taken-name", both, putBackNeverReplacesTakenName},
	{"R22", "fenced-out-past-deadline-fails", both, lostLockAfterDeadline},
	{"R23", "check-reports-held-lock", both, boardCheckHeldLock},
	{"R23", "pa-board-check-held-lock", both, paBoardCheckHeldLock},
	{"R24", "board-write-skipped-after-lost-lock", both, boardWriteAfterLostLock},
	{"R25", "current-shape-cleared", both, deadLeftoversCleared(shapeCurrent)},
	{"R25", "first-earlier-shape-cleared", both, deadLeftoversCleared(shapeFirst)},
	{"R25", "second-earlier-shape-cleared", both, deadLeftoversCleared(shapeSecond)},
	{"R26", "live-foreign-unreadable-left-alone", both, liveForeignUnreadableLeftAlone},
	{"R27", "names-unique-per-attempt", both, namesUniquePerAttempt},
	{"R28", "kill", both, killAt(killRow{step: locking.StepAcquirePending, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "pending"}})},
	{"R29", "kill", both, killOpened},
	{"R29", "pa-open-killed", both, paOpenKilledAfterOpen},
	{"R30", "kill", both, killAt(killRow{step: locking.StepAcquirePublished, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}})},
	{"R31", "kill", both, killAt(killRow{step: locking.StepSweepJudged, setup: setupLeftover, role: roleWrite, left: []string{"spawn-log", "pending"}})},
	{"R32", "kill", both, killAt(killRow{step: locking.StepBreakJudged, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock"}})},
	{"R33", "kill", both, killAt(killRow{step: locking.StepBreakClaimed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock", "claim"}})},
	{"R34", "kill", both, killAt(killRow{step: locking.StepBreakConfirmed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock", "claim"}})},
	{"R35", "kill", both, killAt(killRow{step: locking.StepBreakRenamed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "broken", "claim"}})},
	{"R36", "kill", both, killAt(killRow{step: locking.StepBreakRemoved, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "claim"}})},
	{"R37", "kill", both, killMovedNewer(false, locking.StepBreakMismatch)},
	{"R37", "mismatch", both, mismatch(false, locking.StepBreakMismatch)},
	{"R38", "kill", both, killMovedNewer(false, locking.StepBreakPutBackOpened)},
	{"R38", "mismatch", nolinksOnly, mismatch(false, locking.StepBreakPutBackOpened)},
	{"R39", "kill", both, killMovedNewer(false, locking.StepBreakPutBack)},
	{"R39", "breaker-puts-back-replaced-lock", both, breakerPutsBackReplacedLock},
	{"R40", "kill", both, killAt(killRow{step: locking.StepHoldRead, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}})},
	{"R41", "kill", both, killAt(killRow{step: locking.StepCommitTempWritten, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock", "tmp"}})},
	{"R42", "kill", both, killAt(killRow{step: locking.StepCommitFenced, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock", "tmp"}})},
	{"R43", "kill", both, killAt(killRow{step: locking.StepCommitRenamed, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}, committed: true})},
	{"R43", "pa-open-killed", both, paOpenKilledAfterCommit},
	{"R44", "kill", both, killAt(killRow{step: locking.StepReleaseRenamed, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "broken"}, committed: true})},
	{"R45", "kill", both, killAt(killRow{step: locking.StepReleaseRemoved, setup: setupFree, role: roleWrite, left: []string{"spawn-log"}, committed: true})},
	{"R46", "kill", both, killMovedNewer(true, locking.StepReleaseMismatch)},
	{"R46", "mismatch", both, mismatch(true, locking.StepReleaseMismatch)},
	{"R47", "kill", both, killMovedNewer(true, locking.StepReleasePutBackOpened)},
	{"R47", "mismatch", nolinksOnly, mismatch(true, locking.StepReleasePutBackOpened)},
	{"R48", "kill", both, killMovedNewer(true, locking.StepReleasePutBack)},
	{"R49", "kill-in-unlock", both, killAt(killRow{step: locking.StepBreakRenamed, setup: setupDeadLock, role: roleUnlock, left: []string{"spawn-log", "broken", "claim"}})},
}
