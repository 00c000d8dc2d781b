package conformance_test

import (
	"testing"

	"github.com/pa-toolkit/pa/conformance"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/aferofs"
)

// volume is a folder on the volume to prove: a mounted exFAT card, say.
const volume = "/mnt/card/pa-conformance"

// In a _test.go file of your own, name this TestMain: the kill and stall
// rows run the test binary again as a child process, and Main plays the
// child's part there.
func mainOfYourTests(m *testing.M) { conformance.Main(m) }

// And this TestMyVolume: Run proves the 49 rows on the folder, on every
// class the volume can run (Auto probes link() once), and prints the
// 49 x 2 matrix. `go test -v -run TestMyVolume` shows it.
func testMyVolume(t *testing.T) {
	conformance.Run(t, conformance.Config{Dir: volume, Class: conformance.Auto})
}

// And this TestMyFS: RunFS proves the rows that need no real process on a
// vfs.FS of your own, each case on a fresh one; here the guarded in-memory
// afero FS.
func testMyFS(t *testing.T) {
	conformance.RunFS(t, func(*testing.T) vfs.FS { return aferofs.NewMem() }, conformance.Auto)
}

// Run the conformance suite against a folder from a test of your own: the
// three functions above, renamed as their comments say. (A test needs a
// *testing.T, so this example is compiled, not run; TestConformance and
// TestRunFS in this package run the same calls.)
func ExampleRun() {
	_, _, _ = mainOfYourTests, testMyVolume, testMyFS
}
