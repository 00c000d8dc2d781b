package locking

import (
	"context"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// The names below are the lock's internals that this module's packages
// still reach through locking; they move to their callers' imports of
// internal/lockspec, and out of this package.

// Step is a named step of the lock (lockspec.Step).
type Step = lockspec.Step

// Steps are every step (lockspec.Steps).
var Steps = lockspec.Steps

// The steps (lockspec's).
const (
	StepAcquirePending       = lockspec.StepAcquirePending
	StepAcquireOpened        = lockspec.StepAcquireOpened
	StepAcquirePublished     = lockspec.StepAcquirePublished
	StepSweepJudged          = lockspec.StepSweepJudged
	StepBreakJudged          = lockspec.StepBreakJudged
	StepBreakClaimed         = lockspec.StepBreakClaimed
	StepBreakConfirmed       = lockspec.StepBreakConfirmed
	StepBreakRenamed         = lockspec.StepBreakRenamed
	StepBreakRemoved         = lockspec.StepBreakRemoved
	StepBreakMismatch        = lockspec.StepBreakMismatch
	StepBreakPutBackOpened   = lockspec.StepBreakPutBackOpened
	StepBreakPutBack         = lockspec.StepBreakPutBack
	StepHoldRead             = lockspec.StepHoldRead
	StepCommitTempWritten    = lockspec.StepCommitTempWritten
	StepCommitFenced         = lockspec.StepCommitFenced
	StepCommitRenamed        = lockspec.StepCommitRenamed
	StepReleaseRenamed       = lockspec.StepReleaseRenamed
	StepReleaseRemoved       = lockspec.StepReleaseRemoved
	StepReleaseMismatch      = lockspec.StepReleaseMismatch
	StepReleasePutBackOpened = lockspec.StepReleasePutBackOpened
	StepReleasePutBack       = lockspec.StepReleasePutBack
)

// The spec's other windows (lockspec's).
const (
	DefaultStaleWindow    = lockspec.DefaultStaleWindow
	DefaultUnlockBusyWait = lockspec.DefaultUnlockBusyWait
	DefaultPollInterval   = lockspec.DefaultPollInterval
)

// Identity is a process's identity (lockspec.Identity).
type Identity = lockspec.Identity

// IdentityHost is a Host that knows identities (lockspec.IdentityHost).
type IdentityHost = lockspec.IdentityHost

// GatedFunc is lockspec.GatedFunc.
type GatedFunc = lockspec.GatedFunc

// UpdateMapped is lockspec.UpdateMapped.
func UpdateMapped(ctx context.Context, fsys vfs.FS, name string, fn GatedFunc, opts Options) error {
	return lockspec.UpdateMapped(ctx, fsys, name, fn, opts)
}

// HostHash is lockspec.HostHash.
func HostHash(hostname string) string { return lockspec.HostHash(hostname) }
