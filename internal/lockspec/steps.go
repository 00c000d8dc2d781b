package lockspec

// Step names one point of the lock's protocol, as the spec names it (spec:
// The steps). the hook [SetOnStep] sets is called with it, synchronously, right after
// the action the name describes.
type Step string

// The steps of acquire (spec: The steps, Acquire).
const (
	// StepAcquirePending: the pending file is written, before its link().
	StepAcquirePending Step = "acquire:pending"
	// StepAcquireOpened: without hard links, the lock is created by an
	// exclusive open and is still empty (the spec's exclusive create, with
	// [Options].ExclusiveCreate).
	StepAcquireOpened Step = "acquire:opened"
	// StepAcquireStaged: without hard links (the directory publish), the
	// lock's record is written and synced as <token>.json in this attempt's
	// staging directory, and the directory synced, before its rename to
	// the lock name.
	StepAcquireStaged Step = "acquire:staged"
	// StepAcquirePublished: the lock is published whole.
	StepAcquirePublished Step = "acquire:published"
)

// The step of the sweep (spec: The steps, Sweep).
const (
	// StepSweepJudged: a leftover's owner is judged dead; it is not yet
	// removed.
	StepSweepJudged Step = "sweep:judged"
)

// The steps of a break (spec: The steps, Break), also run by [Unlock].
const (
	// StepBreakJudged: the lock's holder is judged provably dead (or, for
	// unlock, the lock is the one printed); no claim is taken yet.
	StepBreakJudged Step = "break:judged"
	// StepBreakClaimed: the claim is created and the folder listed; no
	// other live claim of the same key was seen.
	StepBreakClaimed Step = "break:claimed"
	// StepBreakConfirmed: the lock re-read has the bytes judged (and, for an
	// automatic break, a holder still provably dead).
	StepBreakConfirmed Step = "break:confirmed"
	// StepBreakRenamed: the lock is renamed to the breaker's broken name.
	StepBreakRenamed Step = "break:renamed"
	// StepBreakRemoved: the moved lock had the bytes judged and is removed.
	StepBreakRemoved Step = "break:removed"
	// StepBreakMismatch: the moved lock is not the one judged; it is not
	// yet put back.
	StepBreakMismatch Step = "break:mismatch"
	// StepBreakPutBackOpened: without hard links, the put-back's exclusive
	// open succeeded and the lock name holds an empty file.
	StepBreakPutBackOpened Step = "break:put-back-opened"
	// StepBreakPutBack: the moved lock is put back (or dropped because the
	// name was taken); the moved name is not yet removed.
	StepBreakPutBack Step = "break:put-back"
)

// The steps of a hold and its commit (spec: The steps, Hold and commit).
const (
	// StepHoldRead: the guarded file has been read under the lock.
	StepHoldRead Step = "hold:read"
	// StepCommitTempWritten: the commit's temp file is written and synced.
	StepCommitTempWritten Step = "commit:temp-written"
	// StepCommitFenced: the fence passed; the temp file is not yet renamed.
	StepCommitFenced Step = "commit:fenced"
	// StepCommitRenamed: the temp file is renamed over the guarded file.
	StepCommitRenamed Step = "commit:renamed"
)

// The steps of a release (spec: The steps, Release).
const (
	// StepReleaseRenamed: the holder's lock is renamed to its broken name.
	StepReleaseRenamed Step = "release:renamed"
	// StepReleaseRemoved: the moved lock was the holder's own and is removed.
	StepReleaseRemoved Step = "release:removed"
	// StepReleaseMismatch: the moved lock was not the holder's own; it is
	// not yet put back.
	StepReleaseMismatch Step = "release:mismatch"
	// StepReleasePutBackOpened: without hard links, the put-back's exclusive
	// open succeeded and the lock name holds an empty file.
	StepReleasePutBackOpened Step = "release:put-back-opened"
	// StepReleasePutBack: the moved lock is put back (or dropped); the moved
	// name is not yet removed.
	StepReleasePutBack Step = "release:put-back"
)

// Steps lists every step in the order of the spec.
var Steps = []Step{
	StepAcquirePending, StepAcquireOpened, StepAcquireStaged, StepAcquirePublished,
	StepSweepJudged,
	StepBreakJudged, StepBreakClaimed, StepBreakConfirmed, StepBreakRenamed,
	StepBreakRemoved, StepBreakMismatch, StepBreakPutBackOpened, StepBreakPutBack,
	StepHoldRead, StepCommitTempWritten, StepCommitFenced, StepCommitRenamed,
	StepReleaseRenamed, StepReleaseRemoved, StepReleaseMismatch,
	StepReleasePutBackOpened, StepReleasePutBack,
}
