// Package spawnlog is the spawn-log of an agent, agents/<agent>/spawn-log.json:
// the record of every dispatch (spec: spawn-log-lock.md, first paragraph and
// "Hold and commit").
//
// The file is one versioned JSON document,
//
//	{"version":1,"nextId":3,"records":[{"id":1,...},{"id":2,...}]}
//
// and every change to it is a read-modify-write through [locking.Update] on
// its path: the lock spawn-log.json.lock beside it, the commit a temp file
// spawn-log.json.tmp-<host>-<pid>-<attempt>, synced, fenced and renamed over
// it, then a sync of the folder. Ids are allocated under that lock from
// nextId, so they are distinct forever, even across records removed by hand.
//
// The document is internal/jsondoc's: reading and appending scale with the
// file (bench: Growth) by its fast path, and encoding/json decides every
// error and its message ([Parse]). The spawn-log's one write is [Append]
// (with [AppendPrepared]): it reads the file by mapping it where the FS
// can, through [lockspec.UpdateMapped], and writes the new document as a
// splice (a new head, the old records' bytes as read, and the new record);
// a document of another shape is encoded whole.
//
// A spawn-log that does not parse, or has a version this package does not
// know, is never overwritten: [Append] fails with a *CorruptError naming the
// file and the parse error, and the file keeps its bytes.
package spawnlog
