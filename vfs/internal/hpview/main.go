package hpview

import (
	"os"
	"testing"
)

// Main is a TestMain that clears the umask where there is one, then runs
// the tests: hackpadfs's suite checks the modes of what it creates against
// the ones asked for.
//
//	func TestMain(m *testing.M) { hpview.Main(m) }
func Main(m *testing.M) {
	clearUmask()
	os.Exit(m.Run())
}
