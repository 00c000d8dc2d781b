// Command growth measures how `pa dispatch open` grows with the spawn-log
// (issue 6, item 4 "Growth"): for each size it makes a canonical estate (a
// spawn-log of N records and a board of N items, as pa itself writes them),
// then, interleaved, writes a file of the spawn-log's size once (temp file,
// write, fsync, rename, folder fsync: the baseline), reads the spawn-log
// and the board and writes each once (the input and output any open has,
// with no lock and no parse: the floor), and runs one whole `pa dispatch
// open` process on the estate. It prints the medians, the open's peak
// memory (rusage maxrss, of pa alone) and the two ratios the issue sets
// goals for: open time over write-once time (goal at most 3x at 100k
// records) and maxrss over the file's size (goal at most 4x at 100k).
//
//	go run ./internal/growth                      # build ./cmd/pa, sizes 1k, 10k, 100k
//	go run ./internal/growth -pa /tmp/pa-old -runs 9
//
// It is a measuring tool, not a test: absolute figures depend on the
// machine and its load; the ratios are the result. The bench/ harness is
// separate.
package main
