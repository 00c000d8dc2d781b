// Package policy holds the acquisition policies of a lock, their default
// deadlines and the stable error codes of a lock's outcomes, as the design
// /work/shared/spec/kernel-lock-policies.txt ("Acquisition Policies") and
// issue 17 say them. It is a leaf: it imports no lock, so that the
// fail-safe lock (package locking) and the kernel lock (package
// locking/kernel) can share it.
//
// A [Policy] says how a caller waits for a held lock:
//
//   - [Mutation]: wait up to the lock's mutation deadline, then fail with a
//     timeout and ask for an inspection of the holder before a manual retry;
//   - [Monitor]: wait up to the monitor deadline (1 s), then stop the poll;
//     the caller retries only on its own later schedule, never in a tight
//     loop;
//   - [SingleFlight]: no wait: a held lock is an ordinary "someone is
//     already doing it" result, not an incident.
//
// The deadlines are each lock's own ([Deadlines]): the kernel lock's
// mutation deadline is the design's 5 s, the fail-safe lock's the spec's
// 10 s. The codes ([Code]) are listed once, with their meaning, in
// docs/kernel-lock.md ("Error codes").
package policy
