package conformance

import (
	"os"
	"testing"
)

// Main is the TestMain of a test binary that calls [Run]: when the binary
// runs as a child of the suite (a write or an unlock that pauses or kills
// itself at a step), it plays that role and exits; otherwise it runs the
// tests, removes the pa binaries the run built, and exits with their code.
//
//	func TestMain(m *testing.M) { conformance.Main(m) }
func Main(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(runChild(spec))
	}
	code := m.Run()
	removeBinaries()
	os.Exit(code)
}
