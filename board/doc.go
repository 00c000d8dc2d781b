// Package board is an agent's board, agents/<agent>/board/board.json: one
// item per dispatch (spec: spawn-log-lock.md, The steps, Hold and commit,
// the board write; row R24).
//
// The file is one versioned JSON document, internal/jsondoc's,
//
//	{"version":1,"items":[{"dispatchId":1,"title":"...","addedAt":"..."}]}
//
// read by [Parse] and [Read] (mapped where the FS can). Its one write is
// [ReadForAdd]: the board read once, under the spawn-log lock, and the new
// board in parts with one dispatch's item added (a splice of the items'
// bytes as read for the common shape, else the whole board encoded), for
// the caller to write with the lock's fence (package dispatch).
//
// A board that does not parse is never overwritten: ReadForAdd fails with
// a *CorruptError naming the file.
package board
