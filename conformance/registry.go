package conformance

import (
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
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
	reach   reach
}

// reach is where a case can run.
type reach int

const (
	// realProcess: the case runs a real child process (a kill or a stall
	// row), the pa binary, or a real process's pid, so it needs a folder
	// of the real OS ([Run]).
	realProcess reach = iota
	// anyFS: the case runs in this process, its "processes" goroutines of
	// a host it is given, so it runs on any vfs.FS ([RunFS]) as well.
	anyFS
)

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
	{"R01", "taken-whole-and-released", both, freeLockTakenWhole, anyFS},
	{"R02", "times-out-naming-holder", both, liveHolderTimesOut, anyFS},
	{"R03", "never-broken-at-any-age", both, liveAtAnyAge, anyFS},
	{"R03", "stalled-holder-keeps-lock", both, stalledHolderKeepsLock, realProcess},
	{"R03", "pa-open-exits-2-naming-holder", both, openTimesOutNamingHolder, realProcess},
	{"R04", "broken-at-once-with-hostname", both, deadHolderBroken(true), anyFS},
	{"R04", "broken-at-once-without-hostname", both, deadHolderBroken(false), anyFS},
	{"R05", "never-broken-timeout-names-it", both, unreadableNeverBroken, anyFS},
	{"R05", "unlock-refuses-force-removes", both, unreadableUnlock, anyFS},
	{"R06", "never-broken-pid-never-asked", both, otherHostNeverBroken, anyFS},
	{"R07", "later-process-pid-reads-alive", both, reusedPIDReadsAlive, anyFS},
	{"R08", "live-never-broken-age-from-later", both, skewedLiveNeverBroken, anyFS},
	{"R08", "dead-broken-all-the-same", both, skewedDeadBroken, anyFS},
	{"R08", "board-check-age-from-later", both, skewedBoardCheck, anyFS},
	{"R09", "second-breaker-backs-off", both, twoBreakersNeverTogether, anyFS},
	{"R09", "breaks-never-overlap", both, breakersAtOnceNeverOverlap, anyFS},
	{"R10", "fresh-lock-left-alone", both, lateBreakerLeavesFreshLock(false), anyFS},
	{"R10", "fresh-lock-dead-at-confirm", both, lateBreakerLeavesFreshLock(true), anyFS},
	{"R11", "stalled-breaker-blocks-others", both, stalledBreakerBlocksOthers, realProcess},
	{"R12", "pa-eight-opens-25-trials", both, eightOpensAgainstDeadLock, realProcess},
	{"R13", "link-refused-falls-back", both, linkRefusedFallsBack, anyFS},
	{"R13", "pa-link-refused-opens", both, linkRefusedOpens, realProcess},
	{"R13", "link-enoent-is-no-fallback", both, linkENOENTNotAFallback, anyFS},
	{"R14", "failed-publish-unlinks-nothing-else", both, failedPublishUnlinksNothingElse, anyFS},
	{"R15", "stalled-releaser-removes-only-its-own", both, stalledReleaser, realProcess},
	{"R16", "releaser-leaves-lock-in-fence-window", both, releaserInFenceWindow, realProcess},
	{"R17", "stalled-sweeper-removes-only-judged", both, stalledSweeper, realProcess},
	{"R18", "inspect-and-pa-unlock-no-lock", both, unlockNoLock, realProcess},
	{"R18", "pa-unlock-usage-error-touches-nothing", both, unlockUsageErrorTouchesNothing, realProcess},
	{"R19", "unlock-by-the-break-steps", both, unlockDeadHolderSteps, anyFS},
	{"R19", "pa-unlock-dead-holder", both, paUnlockDeadHolder, realProcess},
	{"R19", "sweeps-nothing-but-the-lock", both, unlockLeavesLeftovers(false, holderDead), anyFS},
	{"R20", "refused-lock-byte-for-byte", both, unlockRefuses, realProcess},
	{"R20", "refusal-sweeps-nothing", both, unlockLeavesLeftovers(false, holderLive), anyFS},
	{"R21", "pa-force-prints-then-removes", both, paForceRemoves, realProcess},
	{"R21", "forced-holder-fenced-out-retries", both, forcedHolderFencedOut, realProcess},
	{"R21", "changed-lock-removes-nothing", both, unlockChangedRemovesNothing, anyFS},
	{"R21", "force-ignores-live-claims", both, forceIgnoresLiveClaims, anyFS},
	{"R21", "force-sweeps-nothing-but-the-lock", both, unlockLeavesLeftovers(true, holderDead, holderLive), anyFS},
	{"R22", "release-puts-back-newer-lock", both, releasePutsBackNewerLock, anyFS},
	{"R22", "put-back-never-replaces-taken-name", both, putBackNeverReplacesTakenName, anyFS},
	{"R22", "fenced-out-past-deadline-fails", both, lostLockAfterDeadline, anyFS},
	{"R23", "check-reports-held-lock", both, boardCheckHeldLock, anyFS},
	{"R23", "pa-board-check-held-lock", both, paBoardCheckHeldLock, realProcess},
	{"R24", "board-write-skipped-after-lost-lock", both, boardWriteAfterLostLock, anyFS},
	{"R25", "current-shape-cleared", both, deadLeftoversCleared(shapeCurrent), anyFS},
	{"R25", "first-earlier-shape-cleared", both, deadLeftoversCleared(shapeFirst), anyFS},
	{"R25", "second-earlier-shape-cleared", both, deadLeftoversCleared(shapeSecond), anyFS},
	{"R26", "live-foreign-unreadable-left-alone", both, liveForeignUnreadableLeftAlone, anyFS},
	{"R27", "names-unique-per-attempt", both, namesUniquePerAttempt, anyFS},
	{"R28", "kill", both, killAt(killRow{step: lockspec.StepAcquirePending, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "pending"}}), realProcess},
	{"R29", "kill", both, killOpened, realProcess},
	{"R29", "pa-open-killed", both, paOpenKilledAfterOpen, realProcess},
	{"R30", "kill", both, killAt(killRow{step: lockspec.StepAcquirePublished, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}}), realProcess},
	{"R31", "kill", both, killAt(killRow{step: lockspec.StepSweepJudged, setup: setupLeftover, role: roleWrite, left: []string{"spawn-log", "pending"}}), realProcess},
	{"R32", "kill", both, killAt(killRow{step: lockspec.StepBreakJudged, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock"}}), realProcess},
	{"R33", "kill", both, killAt(killRow{step: lockspec.StepBreakClaimed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock", "claim"}}), realProcess},
	{"R34", "kill", both, killAt(killRow{step: lockspec.StepBreakConfirmed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock", "claim"}}), realProcess},
	{"R35", "kill", both, killAt(killRow{step: lockspec.StepBreakRenamed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "broken", "claim"}}), realProcess},
	{"R36", "kill", both, killAt(killRow{step: lockspec.StepBreakRemoved, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "claim"}}), realProcess},
	{"R37", "kill", both, killMovedNewer(false, lockspec.StepBreakMismatch), realProcess},
	{"R37", "mismatch", both, mismatch(false, lockspec.StepBreakMismatch), realProcess},
	{"R38", "kill", both, killMovedNewer(false, lockspec.StepBreakPutBackOpened), realProcess},
	{"R38", "mismatch", nolinksOnly, mismatch(false, lockspec.StepBreakPutBackOpened), realProcess},
	{"R39", "kill", both, killMovedNewer(false, lockspec.StepBreakPutBack), realProcess},
	{"R39", "breaker-puts-back-replaced-lock", both, breakerPutsBackReplacedLock, anyFS},
	{"R40", "kill", both, killAt(killRow{step: lockspec.StepHoldRead, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}}), realProcess},
	{"R41", "kill", both, killAt(killRow{step: lockspec.StepCommitTempWritten, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock", "tmp"}}), realProcess},
	{"R42", "kill", both, killAt(killRow{step: lockspec.StepCommitFenced, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock", "tmp"}}), realProcess},
	{"R43", "kill", both, killAt(killRow{step: lockspec.StepCommitRenamed, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}, committed: true}), realProcess},
	{"R43", "pa-open-killed", both, paOpenKilledAfterCommit, realProcess},
	{"R44", "kill", both, killAt(killRow{step: lockspec.StepReleaseRenamed, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "broken"}, committed: true}), realProcess},
	{"R45", "kill", both, killAt(killRow{step: lockspec.StepReleaseRemoved, setup: setupFree, role: roleWrite, left: []string{"spawn-log"}, committed: true}), realProcess},
	{"R46", "kill", both, killMovedNewer(true, lockspec.StepReleaseMismatch), realProcess},
	{"R46", "mismatch", both, mismatch(true, lockspec.StepReleaseMismatch), realProcess},
	{"R47", "kill", both, killMovedNewer(true, lockspec.StepReleasePutBackOpened), realProcess},
	{"R47", "mismatch", nolinksOnly, mismatch(true, lockspec.StepReleasePutBackOpened), realProcess},
	{"R48", "kill", both, killMovedNewer(true, lockspec.StepReleasePutBack), realProcess},
	{"R49", "kill-in-unlock", both, killAt(killRow{step: lockspec.StepBreakRenamed, setup: setupDeadLock, role: roleUnlock, left: []string{"spawn-log", "broken", "claim"}}), realProcess},
	{"R50", "other-namespace-holder-kept", both, otherNamespaceHolderKept, realProcess},
	{"R50", "other-namespace-pending-kept", both, otherNamespacePendingKept, realProcess},
	{"R50", "other-namespace-claim-kept", both, otherNamespaceClaimKept, realProcess},
	{"R50", "pa-opens-of-two-namespaces", both, opensOfTwoNamespaces, realProcess},
	{"R51", "other-namespace-dead-holder-broken", both, otherNamespaceDeadHolderBroken, realProcess},
	{"R52", "reused-pid-with-identity", both, reusedPIDWithIdentity, realProcess},
	{"R53", "earlier-boot-broken", both, earlierBootBroken, realProcess},
	{"R54", "stopped-holder-kept", both, stoppedHolderKept, realProcess},
	{"R55", "copied-lock-judged-by-identity", both, copiedLockJudgedByIdentity, realProcess},
	{"R56", "no-kernel-lock-never-breaks", both, noKernelLockNeverBreaks, realProcess},
	{"R57", "four-field-judged-by-the-spec", both, fourFieldJudgedByTheSpec, realProcess},
}
