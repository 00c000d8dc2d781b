// Package board is an agent's board, agents/<agent>/board/board.json: one
// item per dispatch, patched while the spawn-log lock is still held (spec:
// spawn-log-lock.md, The steps, Hold and commit, the board write; row R24).
//
// [OpenDispatch] is the whole of `pa dispatch open`: append the record to
// the spawn-log under its lock, then, in the same hold, write the board with
// its own temp file in the board folder and the same fence before its
// rename. If the lock was lost by then, the board write is skipped and a
// *NotOnBoardError names the dispatch (the record stays in the spawn-log).
//
// [Check] is `pa board check`: read-only, it reports a spawn-log lock held
// longer than the stale window and every dispatch of the spawn-log that is
// not on the board.
//
// A board that does not parse is never overwritten: [OpenDispatch] reads
// and checks the board once per hold, under the lock, while the
// spawn-log's temp file is written and before its fence and rename, and
// fails with a *CorruptError naming the file, having committed nothing (the
// temp file removed). The board write is made from that one read (a
// mapping where the FS can), as a splice (the items' bytes as read, then
// the new one), like the spawn-log's, and [Check] is linear in the records
// and items.
package board
