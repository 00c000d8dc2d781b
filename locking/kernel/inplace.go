package kernel

import (
	"bytes"
	"io"

	"github.com/pa-toolkit/pa/vfs"
)

// overwriteInPlace is the seam of one optimisation: it writes data (a
// record) over the start of the lock file through held, the handle whose
// kernel lock the holder owns, padded with spaces (JSON's white space) to
// the file's length, so no byte of an earlier, longer record is left after
// it. It reports false, having written nothing, where it cannot: held has
// no io.WriterAt, cannot be stated, or the file is longer than maxRecord
// (padding it would make a record too long to read); writeRecord then
// takes the plain path, the truncating write of writeFile.
//
// Why: the plain path truncates a file that holds data, twice an update
// (the acquire's record and the release's), and on ext4 that costs (its
// auto_da_alloc starts writeback of a file truncated and rewritten); the
// in-place write does not. bench, "Uncontended update on the temp dir, pa
// kernel lock", on 2 cores with an ext4 temp dir: 1.31x gofrs/flock with
// the truncating write (1.01 ms vs 748 us an update, the run of
// 2026-12-04 16:52), 1.02x in place (1.63 ms vs 1.59 ms, the run of 20:55
// in bench/RESULTS.md, on a slower disk that hour), the goal's 1.05x met.
// tmpfs, which has no such writeback, is unchanged (1.05x, 1.06x).
func overwriteInPlace(held vfs.File, data []byte) (bool, error) {
	w, ok := held.(io.WriterAt)
	if !ok {
		return false, nil
	}
	fi, err := held.Stat()
	if err != nil || fi.Size() > maxRecord {
		return false, nil
	}
	buf := data
	if pad := fi.Size() - int64(len(data)); pad > 0 {
		buf = append(append(make([]byte, 0, fi.Size()), data...), bytes.Repeat([]byte{' '}, int(pad))...)
	}
	_, err = w.WriteAt(buf, 0)
	return true, err
}
