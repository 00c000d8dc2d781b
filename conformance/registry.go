package conformance

import (
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// classSet is the columns a case proves, a set of bits.
type classSet int

const (
	linksOnly   classSet = 1 << iota // the column with hard links
	nolinksOnly                      // the spec's column without hard links (exclusive create)
	dirOnly                          // the column without hard links, directory publish
	// both is the spec's two columns.
	both = linksOnly | nolinksOnly
	// all is every column.
	all = linksOnly | nolinksOnly | dirOnly
)

// list is the set's columns, in the table's order.
func (s classSet) list() []Class {
	var out []Class
	for i, c := range columns {
		if s&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	return out
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
	{"R01", "taken-whole-and-released", all, freeLockTakenWhole, anyFS},
	{"R02", "times-out-naming-holder", all, liveHolderTimesOut, anyFS},
	{"R03", "never-broken-at-any-age", all, liveAtAnyAge, anyFS},
	{"R03", "stalled-holder-keeps-lock", all, stalledHolderKeepsLock, realProcess},
	{"R03", "pa-open-exits-2-naming-holder", all, openTimesOutNamingHolder, realProcess},
	{"R04", "broken-at-once-with-hostname", all, deadHolderBroken(true), anyFS},
	{"R04", "broken-at-once-without-hostname", all, deadHolderBroken(false), anyFS},
	{"R05", "never-broken-timeout-names-it", all, unreadableNeverBroken, anyFS},
	{"R05", "unlock-refuses-force-removes", all, unreadableUnlock, anyFS},
	{"R06", "never-broken-pid-never-asked", all, otherHostNeverBroken, anyFS},
	{"R07", "later-process-pid-reads-alive", all, reusedPIDReadsAlive, anyFS},
	{"R08", "live-never-broken-age-from-later", all, skewedLiveNeverBroken, anyFS},
	{"R08", "dead-broken-all-the-same", all, skewedDeadBroken, anyFS},
	{"R08", "board-check-age-from-later", all, skewedBoardCheck, anyFS},
	{"R09", "second-breaker-backs-off", all, twoBreakersNeverTogether, anyFS},
	{"R09", "breaks-never-overlap", all, breakersAtOnceNeverOverlap, anyFS},
	{"R10", "fresh-lock-left-alone", all, lateBreakerLeavesFreshLock(false), anyFS},
	{"R10", "fresh-lock-dead-at-confirm", all, lateBreakerLeavesFreshLock(true), anyFS},
	{"R11", "stalled-breaker-blocks-others", all, stalledBreakerBlocksOthers, realProcess},
	{"R12", "pa-eight-opens-25-trials", all, eightOpensAgainstDeadLock, realProcess},
	{"R13", "link-refused-falls-back", all, linkRefusedFallsBack, anyFS},
	{"R13", "pa-link-refused-opens", all, linkRefusedOpens, realProcess},
	{"R13", "link-enoent-is-no-fallback", all, linkENOENTNotAFallback, anyFS},
	{"R14", "failed-publish-unlinks-nothing-else", all, failedPublishUnlinksNothingElse, anyFS},
	{"R15", "stalled-releaser-removes-only-its-own", all, stalledReleaser, realProcess},
	{"R16", "releaser-leaves-lock-in-fence-window", all, releaserInFenceWindow, realProcess},
	{"R17", "stalled-sweeper-removes-only-judged", all, stalledSweeper, realProcess},
	{"R18", "inspect-and-pa-unlock-no-lock", all, unlockNoLock, realProcess},
	{"R18", "pa-unlock-usage-error-touches-nothing", all, unlockUsageErrorTouchesNothing, realProcess},
	{"R19", "unlock-by-the-break-steps", all, unlockDeadHolderSteps, anyFS},
	{"R19", "pa-unlock-dead-holder", all, paUnlockDeadHolder, realProcess},
	{"R19", "sweeps-nothing-but-the-lock", all, unlockLeavesLeftovers(false, holderDead), anyFS},
	{"R20", "refused-lock-byte-for-byte", all, unlockRefuses, realProcess},
	{"R20", "refusal-sweeps-nothing", all, unlockLeavesLeftovers(false, holderLive), anyFS},
	{"R21", "pa-force-prints-then-removes", all, paForceRemoves, realProcess},
	{"R21", "forced-holder-fenced-out-retries", all, forcedHolderFencedOut, realProcess},
	{"R21", "changed-lock-removes-nothing", all, unlockChangedRemovesNothing, anyFS},
	{"R21", "force-ignores-live-claims", all, forceIgnoresLiveClaims, anyFS},
	{"R21", "force-sweeps-nothing-but-the-lock", all, unlockLeavesLeftovers(true, holderDead, holderLive), anyFS},
	{"R22", "release-puts-back-newer-lock", all, releasePutsBackNewerLock, anyFS},
	{"R22", "put-back-never-replaces-taken-name", all, putBackNeverReplacesTakenName, anyFS},
	{"R22", "fenced-out-past-deadline-fails", all, lostLockAfterDeadline, anyFS},
	{"R23", "check-reports-held-lock", all, boardCheckHeldLock, anyFS},
	{"R23", "pa-board-check-held-lock", all, paBoardCheckHeldLock, realProcess},
	{"R24", "board-write-skipped-after-lost-lock", all, boardWriteAfterLostLock, anyFS},
	{"R25", "current-shape-cleared", all, deadLeftoversCleared(shapeCurrent), anyFS},
	{"R25", "first-earlier-shape-cleared", all, deadLeftoversCleared(shapeFirst), anyFS},
	{"R25", "second-earlier-shape-cleared", all, deadLeftoversCleared(shapeSecond), anyFS},
	{"R26", "live-foreign-unreadable-left-alone", all, liveForeignUnreadableLeftAlone, anyFS},
	{"R27", "names-unique-per-attempt", all, namesUniquePerAttempt, anyFS},
	{"R28", "kill", all, killAt(killRow{step: lockspec.StepAcquirePending, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "pending"}}), realProcess},
	{"R29", "kill", all, killOpened, realProcess},
	{"R29", "pa-open-killed", all, paOpenKilledAfterOpen, realProcess},
	{"R29", "pa-killed-at-every-step", dirOnly, paKilledAtEveryStep, realProcess},
	{"R30", "kill", all, killAt(killRow{step: lockspec.StepAcquirePublished, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}}), realProcess},
	{"R31", "kill", all, killAt(killRow{step: lockspec.StepSweepJudged, setup: setupLeftover, role: roleWrite, left: []string{"spawn-log", "pending"}}), realProcess},
	{"R32", "kill", all, killAt(killRow{step: lockspec.StepBreakJudged, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock"}}), realProcess},
	{"R33", "kill", all, killAt(killRow{step: lockspec.StepBreakClaimed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock", "claim"}}), realProcess},
	{"R34", "kill", all, killAt(killRow{step: lockspec.StepBreakConfirmed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "lock", "claim"}}), realProcess},
	{"R35", "kill", all, killAt(killRow{step: lockspec.StepBreakRenamed, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "broken", "claim"}}), realProcess},
	{"R36", "kill", all, killAt(killRow{step: lockspec.StepBreakRemoved, setup: setupDeadLock, role: roleWrite, left: []string{"spawn-log", "claim"}}), realProcess},
	{"R37", "kill", all, killMovedNewer(false, lockspec.StepBreakMismatch), realProcess},
	{"R37", "mismatch", all, mismatch(false, lockspec.StepBreakMismatch), realProcess},
	{"R38", "kill", all, killMovedNewer(false, lockspec.StepBreakPutBackOpened), realProcess},
	{"R38", "mismatch", nolinksOnly, mismatch(false, lockspec.StepBreakPutBackOpened), realProcess},
	{"R39", "kill", all, killMovedNewer(false, lockspec.StepBreakPutBack), realProcess},
	{"R39", "breaker-puts-back-replaced-lock", all, breakerPutsBackReplacedLock, anyFS},
	{"R40", "kill", all, killAt(killRow{step: lockspec.StepHoldRead, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}}), realProcess},
	{"R41", "kill", all, killAt(killRow{step: lockspec.StepCommitTempWritten, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock", "tmp"}}), realProcess},
	{"R42", "kill", all, killAt(killRow{step: lockspec.StepCommitFenced, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock", "tmp"}}), realProcess},
	{"R43", "kill", all, killAt(killRow{step: lockspec.StepCommitRenamed, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "lock"}, committed: true}), realProcess},
	{"R43", "pa-open-killed", all, paOpenKilledAfterCommit, realProcess},
	{"R44", "kill", all, killAt(killRow{step: lockspec.StepReleaseRenamed, setup: setupFree, role: roleWrite, left: []string{"spawn-log", "broken"}, committed: true}), realProcess},
	{"R45", "kill", all, killAt(killRow{step: lockspec.StepReleaseRemoved, setup: setupFree, role: roleWrite, left: []string{"spawn-log"}, committed: true}), realProcess},
	{"R46", "kill", all, killMovedNewer(true, lockspec.StepReleaseMismatch), realProcess},
	{"R46", "mismatch", all, mismatch(true, lockspec.StepReleaseMismatch), realProcess},
	{"R47", "kill", all, killMovedNewer(true, lockspec.StepReleasePutBackOpened), realProcess},
	{"R47", "mismatch", nolinksOnly, mismatch(true, lockspec.StepReleasePutBackOpened), realProcess},
	{"R48", "kill", all, killMovedNewer(true, lockspec.StepReleasePutBack), realProcess},
	{"R49", "kill-in-unlock", all, killAt(killRow{step: lockspec.StepBreakRenamed, setup: setupDeadLock, role: roleUnlock, left: []string{"spawn-log", "broken", "claim"}}), realProcess},
	{"R50", "other-namespace-holder-kept", all, otherNamespaceHolderKept, realProcess},
	{"R50", "other-namespace-pending-kept", all, otherNamespacePendingKept, realProcess},
	{"R50", "other-namespace-claim-kept", all, otherNamespaceClaimKept, realProcess},
	{"R50", "pa-opens-of-two-namespaces", all, opensOfTwoNamespaces, realProcess},
	{"R51", "other-namespace-dead-holder-broken", all, otherNamespaceDeadHolderBroken, realProcess},
	{"R52", "reused-pid-with-identity", all, reusedPIDWithIdentity, realProcess},
	{"R53", "earlier-boot-broken", all, earlierBootBroken, realProcess},
	{"R54", "stopped-holder-kept", all, stoppedHolderKept, realProcess},
	{"R55", "copied-lock-judged-by-identity", all, copiedLockJudgedByIdentity, realProcess},
	{"R56", "no-kernel-lock-never-breaks", all, noKernelLockNeverBreaks, realProcess},
	{"R57", "four-field-judged-by-the-spec", all, fourFieldJudgedByTheSpec, realProcess},
}
