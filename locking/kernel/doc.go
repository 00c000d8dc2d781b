// Package kernel is the kernel lock of the design "File Lock Acquisition
// v0" (/work/shared/spec/kernel-lock-policies.txt; proof table in
// docs/kernel-lock.md), on a [vfs.FS]: a sibling "<file>.lock" taken with
// a non-blocking exclusive kernel lock (flock(LOCK_EX|LOCK_NB) on POSIX, a
// byte-range lock on Windows, through [vfs.TryLock]), tried again after a
// bounded sleep until the policy's deadline on the monotonic clock. The
// kernel lock, not the file's existence, is ownership: no step of this
// package ever removes the lock file, and the kernel frees the lock the
// moment its holder's process or handle ends (a kill included), with no
// operator.
//
//	err := kernel.Update(ctx, fsys, "counter", kernel.Options{Agent: "crow", Operation: "count"}, increment)
//
// [Acquire] gives a [*Hold], ended by [Hold.Release]; [Update] is a whole
// read-modify-write (temp file, sync, rename, folder sync). The policies
// are package policy's ([Options] Policy): mutation waits up to 5 s,
// monitor 1 s, and both then fail with a *[TimeoutError] (code
// lock_acquire_timeout) and append one file_lock_incident_v0 row to
// "<file>.lock.incidents.jsonl" ([ReadIncidents]); single_flight returns
// a *[HeldError] (ErrHeld) at once: an ordinary result, no incident.
//
// After the acquisition the holder writes its public-safe [Record] (lock
// id hash, pid, hostname, agent, operation, policy, acquisition time; the
// release time after a normal release): into the *.lock file on POSIX,
// into an atomically replaced "*.lock.holder.json" sidecar on Windows,
// where a reader cannot share a locked handle's bytes.
//
// The incident row is appended with O_APPEND and one write, without the
// blocked lock. Its append never hides nor delays the timeout past
// [Options] IncidentWait (250 ms): it runs on its own goroutine, and a
// timeout whose append failed, was dropped at the cap or is still running
// says so in its Incident field. The log never grows past [IncidentCap]
// (1 MiB); a row is at most [MaxIncidentRow] (4 KiB).
//
// # Operator recovery
//
// When a timeout names a holder (design: Operator Recovery):
//
//  1. Inspect the recorded holder PID, agent, operation and acquisition
//     time (the error, the incident row, or the record itself).
//  2. Confirm that the process is still present and actually stalled.
//  3. Terminate the process only after that confirmation and within your
//     existing authority.
//  4. Retry according to the policy after the process exits.
//
// Never delete the lock file: the kernel releases the lock when its
// holder exits, and the next owner overwrites the record. An absent pid or
// a stale record (a dead pid, a release time while the lock is held) is
// evidence to investigate, not permission to remove a lock file.
//
// # Where it does not hold
//
// A volume without kernel locks (where TryLock fails with
// errors.ErrUnsupported or ENOLCK: some network and FUSE file systems), or
// one that grants the lock to a second handle while a first holds it, is
// refused with a *[UnsupportedError] rather than trusted: the second is
// checked once per FS value and folder in a process, by trying the lock
// through a second handle while holding it. A volume whose lock excludes
// within one host but not across hosts (a network share mounted by two)
// passes that check and is still outside this package: keep every holder
// of a lock on one host. [LockID] hashes the file's name in its FS, so
// processes that root their FS differently see different ids for one file.
package kernel
