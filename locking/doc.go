// Package locking is a fail-safe file lock for a read-modify-write that
// never loses a record: the lock of spec/spawn-log-lock.md, on any file
// system behind [vfs.FS] (the real OS with vfs/osfs, afero and hackpadfs
// through the adapters, a volume without hard links such as exFAT).
//
//	err := locking.Update(ctx, fsys, "counter", increment, locking.Options{})
//
// where increment computes the new content from the current one (the
// package's Update example is the whole program).
//
// [Update] is the whole read-modify-write; [Acquire] gives a [*Hold] whose
// [Hold.Commit] and [Hold.WriteFenced] write under the lock, and
// [Hold.Release] ends it. [Inspect] reads and judges a lock; [Unlock]
// removes one (by force only when its caller says so).
//
// The guarantees, on one host with the file on a local file system (a
// folder shared across hosts is outside them):
//
//  1. No record is ever lost. A commit is a temp file renamed over the
//     file, and right before the rename the writer checks that the lock
//     still carries its token (the fence); a writer whose lock was lost
//     commits nothing, and Update runs its read-modify-write again.
//  2. A live holder never loses its lock to an automatic step. The one
//     automatic break is of a holder on this host that is provably dead:
//     its process gone, by its pid, its recorded identity (boot, pid
//     namespace, start time) and the kernel lock it holds on the lock
//     file. Nothing is ever broken by age.
//
// A held lock makes a writer wait, up to [Options] Timeout (10 s), then
// fail with a [*TimeoutError] that carries the lock and its [Holder] as
// read and judged. The errors are data: their messages name the lock and
// its holder and no command; what clears a held lock, and when forcing is
// right, is the calling program's to say; [Options] OnWait and OnBreak
// tell it, as they happen, of a wait on a holder and of the automatic
// break of a dead one. docs/spawn-log-lock.md is the design, step by
// step.
//
// A power cut loses no commit that returned: its temp file is synced
// before the rename and its folder after. On exFAT a cut inside the
// rename can leave the folder listing the file's name twice, a copy under
// each entry; the next hold, before it reads the file, commits the copy a
// lookup finds over it and removes the other entries, so that no stale
// copy is left to hide a later commit, and [Hold.WriteFenced] removes its
// file's extra entries before its rename (docs/spawn-log-lock.md, "A power
// cut").
package locking
