package hackpadfs_test

import (
	"os"
	"testing"
)

// TestMain clears the umask where there is one: hackpadfs's own suite
// checks the modes of what it creates on the OS against the ones asked for.
func TestMain(m *testing.M) {
	clearUmask()
	os.Exit(m.Run())
}
