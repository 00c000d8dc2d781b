// Package conformance is the spawn-log lock's conformance suite: every row
// of the spec's table "States and crash points" (spec/spawn-log-lock.md; the
// rows R01..R49 of spec/rows.tsv) and the rows R50..R57 of the proof of
// death (docs/spawn-log-lock.md, "Proof of death"), on each class of file
// system (hard links; no hard links by the spec's exclusive create; no hard
// links by the directory publish), proved on a directory of the volume
// under test.
//
// A test calls [Run] with a directory and a class; each row runs as
// subtests named by row id, class and case (R31/nolinks/kill), and [Run]
// prints the 57 x 3 matrix, one line a row, each as soon as the row's
// cases have ended (the rows not run at the end, then a summary):
//
//	R12 links=pass nolinks=pass dirpublish=pass Eight writers at once against a dead-holder lock, 25 trials
//
// A cell passes when every case registered for it ran and passed; a run
// with any cell of a class under test not run fails, unless -run or -skip
// picked the cases (then the cells left out are listed in the log and the
// run passes on the ones picked).
//
// The kill rows (R28-R49), the stall rows (R11, R15-R17) and the rows of
// the proof of death (R50-R57; those of another pid namespace start the
// child under unshare -p -f --mount-proc, as root on Linux) run real child
// processes: the test binary runs itself again with an environment variable
// that selects the child's role (a write, or an unlock), which pauses at a
// step until the parent tells it to go on, or kills itself with SIGKILL at a
// step. Rows about the pa command run the real binary, built once per run
// (the shipped build and the pafault test build). So a test binary that
// calls Run must call [Main] from its TestMain.
//
// [RunFS] runs the cases that need no real process on any vfs.FS (an
// in-memory one, say), with goroutines as the processes of a fake host:
// 22 of the 57 rows. A custom FS that passes vfs/vfstest gets the same
// proofs there as the OS.
//
// The class "no hard links" is [nolinkfs] over the operating system on a
// volume that has hard links, or the volume itself when its own link()
// refuses (exFAT): then no shim is needed. [Auto] probes link() once.
package conformance
