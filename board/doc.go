// Package board is an agent's board, agents/<agent>/board/board.json: one
// item per dispatch (spec: spawn-log-lock.md, The steps, Hold and commit,
// the board write; row R24).
//
// The file is one versioned JSON document, internal/jsondoc's,
//
//	{"version":1,"items":[{"dispatchId":1,"title":"...","addedAt":"..."}]}
//
// read by [Parse] and [Read] (mapped where the FS can). It is written in
// two ways, each a new board in parts for the caller to write with the
// lock's fence (package dispatch), under the spawn-log lock: [ReadForAdd],
// the board read once and one dispatch's item added (a splice of the
// items' bytes as read for the common shape, else the whole board
// encoded), and [Board.Extend], a board read by [Read] with the items of
// several dispatches added after its own, each of which keeps its bytes.
// Items are only ever added, after those on the board: none is dropped,
// changed or moved.
//
// A board that does not parse is never overwritten: ReadForAdd and Read
// fail with a *CorruptError naming the file.
package board
