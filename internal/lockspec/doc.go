// Package lockspec is the fail-safe file lock of the spawn-log lock spec
// as the spec reads it (spec/spawn-log-lock.md; docs/spawn-log-lock.md is
// this implementation's design page); package locking is its public
// facade, and this module's packages (spawnlog, board, dispatch, cmd/pa,
// the conformance suite) reach its steps and seams here: a lock file beside the file it guards,
// taken whole by link() or, on a volume without hard links, by an exclusive
// create; broken automatically only when its holder is provably dead; and a
// read-modify-write whose every commit is fenced.
//
// # The envelope
//
// Every guarantee holds only inside the spec's supported envelope: one host,
// with the guarded file on a local file system (APFS, ext4, xfs, btrfs,
// NTFS, exFAT and other local volumes without hard links). The writers may
// run in several pid namespaces of that host (containers sharing a volume):
// they share its kernel, which is what the proof of death rests on. A folder shared
// across hosts (a network share, or one folder written from two machines) is
// outside it: a live holder on another host that reports the same hostname
// reads as dead, and a listing that omits a just-created claim lets two
// breakers on; either can lose a record. Use a lock-free write path there.
//
// # Guarantees
//
//  1. No record is ever lost (G1). A commit is a temp file renamed over the
//     file, and immediately before the rename the writer re-reads the lock
//     and checks its own token (the fence). A writer whose lock was lost
//     commits nothing and runs its whole read-modify-write again under a
//     fresh lock, within one timeout from its start ([Update]).
//  2. A live holder never loses its lock to an automatic step (G2). The only
//     automatic break is a lock whose holder is on this host and provably
//     dead (see "Proof of death"). Nothing is ever broken by age. Breakers
//     of one dead lock run one at a time, each behind a claim; a release
//     only ever moves its own lock.
//
// # Proof of death
//
// A pid proves nothing across pid namespaces, and a pid that answers may
// be reused. So every lock published by a process whose [Host] is an
// [IdentityHost] ([OSHost] on Linux, macOS and Windows) records its
// holder's [Identity] (boot, pid namespace, start time; Windows has no pid
// namespace), and its holder keeps an exclusive kernel lock (flock(2);
// LockFileEx on Windows) on the lock's file for the whole hold, which the
// record claims by the file's key (device and inode; on Windows the volume
// serial and file index of the handle, [vfs.KeyOfFile]). A lock is provably
// dead only when every signal its record carries says so, and alive as
// soon as one says alive: its kernel lock refused is alive; another boot
// is dead; another pid namespace is [StateOtherNamespace], held, unless
// its kernel lock is free; in this namespace a pid gone, a pid started at
// another time, or a free kernel lock the pid does not contradict is dead.
// A record of the spec's four fields is judged by kill(pid, 0), as the
// spec says. Every name a writer makes beside the lock is held the same
// way while it is the writer's, and a sweep removes a dead pid's name only
// while holding its kernel lock. [Holder.Evidence] says what decided.
// Where a volume has no kernel lock that excludes a second open, no lock
// is claimed and identity alone decides (docs/spawn-log-lock.md, "Proof of
// death").
//
// Both hold on every path that does not use [Unlock] with force; the spec's
// "residual windows" start only there.
//
// # The names
//
// For a guarded file F the lock is F.lock ([LockName]). Beside it, every
// attempt uses names that carry its host (8 hex of the sha256 of the
// hostname), its pid and 24 fresh random hex characters, so no two attempts
// ever share one: F.lock.pending-*, F.lock.claim-<key>-*, F.lock.broken-*
// and F.tmp-*. The sweep at every acquire removes such names whose owner is
// on this host and dead (its pid gone, and no process holding the name's
// kernel lock), and nothing by age.
//
// # Waiting
//
// A writer that finds the lock held waits for it to go (spec: Acquire step
// 3). Where the FS can watch for a removal ([vfs.WatchFS]: osfs with
// inotify on the lock file on Linux, kqueue on macOS and the BSDs) the
// watch is armed before
// the read of the held lock, so the release (a rename of the lock away),
// a break or an unlock wakes the waiter at once, and a release between the
// read and the wait is never missed. Every wait also ends after
// [Options.PollInterval] (10 ms): a holder that died sends no event, and the
// poll reads its lock and breaks it. Without a watch the waiter polls with
// a back-off from 100 µs up to the poll interval. Where the FS has a wait
// queue ([vfs.QueueFS]: osfs with flock(2) on the lock's folder on Unix)
// only the head of the queue watches and polls; the others sleep in the
// queue and read the lock every 5 poll intervals, so a release wakes one
// waiter, and a stopped head holds the others up for no longer than that.
// After a wait the lock is read first and published only when it is gone,
// but by the head woken by its watch, which publishes at once. Nothing
// safe depends on the wake-up or the queue: a wake only leads to the read
// and the publish of the steps.
//
// # The folder of a hold
//
// Every name of a hold is in the lock's folder, so Acquire opens that
// folder once ([vfs.PinDir], where the FS has [vfs.OpenRootFS]) and every
// call of the hold, the commit's included, is resolved from it; Release
// closes it. If the folder is renamed during a hold, the hold's calls stay
// in the folder it opened. The sweep looks only at the names that begin
// like one beside the lock ([vfs.ReadDirPrefix]), so unrelated files in
// the folder are left alone.
//
// # Steps
//
// Every step of the spec is a [Step] constant, and the hook [SetOnStep]
// sets is called synchronously at each: tests pause or kill a process
// there. The shipped path never sets it.
//
// # Errors
//
// The errors of a held lock are data: a [*TimeoutError], [*RefusedError]
// or [*BusyError] carries the lock, its [Holder] as read and judged, the
// wait and the claim (errors.As finds it; a timeout also matches
// [ErrTimeout] by errors.Is). Its message names the lock and the holder,
// every value read from disk escaped, and no command: what clears a held
// lock, and when forcing it is right, is the calling program's to say
// (`pa`'s lines name `pa dispatch unlock`).
package lockspec
