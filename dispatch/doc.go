// Package dispatch is the use cases over the spawn-log and the board
// (spec: spawn-log-lock.md, The steps, Hold and commit; pa board check).
//
// [Open] is the whole of `pa dispatch open`: append the record to the
// spawn-log under its lock, then, in the same hold, write the board with
// its own temp file in the board folder and the same fence before its
// rename. The board is read and checked once per hold, before the
// spawn-log's commit, so a board that does not parse stops the open with
// nothing committed. If the lock was lost by the board's rename, the board
// write is skipped and a *NotOnBoardError names the dispatch (the record
// stays in the spawn-log).
//
// [Check] is `pa board check`: read-only, it reports a spawn-log lock held
// longer than the stale window, every dispatch of the spawn-log that is not
// on the board (after waiting, a bounded grace, for a writer in flight
// between its commit and its board write), a file that does not parse and
// a file that cannot be read as one. It is linear in the records and items.
//
// [Repair] is `pa board repair`: under the spawn-log lock it puts on the
// board every dispatch of the spawn-log that is missing from it, in one
// write behind the same fence as Open's board write, adding items after
// the board's own and changing none; a board that has every dispatch is
// not written.
package dispatch
