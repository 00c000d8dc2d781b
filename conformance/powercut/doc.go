// Package powercut runs the use cases of pa (dispatch.Open and
// dispatch.Repair, as the CLI runs them) on a crash model of the disk
// (vfs/vfstest/crashfs), cuts the power after every file-system operation
// in turn, and checks on each state the disk may show what "the next boot"
// finds: every dispatch whose open reported success is in the spawn-log
// once, the spawn-log and the board parse, the next open goes through at
// once (a holder of the earlier boot is dead), nothing is left beside the
// spawn-log after it, and the board check reports exactly the dispatches
// missing from the board; and again with every pid of the earlier boot
// taken by a live process of the new one (its reused-pids runs), or by a
// process with the earlier one's start time too, so that only the boot id
// proves the cut holder dead (its twin-pids runs). It holds tests only.
package powercut
