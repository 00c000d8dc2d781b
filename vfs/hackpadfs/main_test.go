package hackpadfs_test

import (
	"testing"

	"github.com/pa-toolkit/pa/vfs/internal/hpview"
)

// TestMain clears the umask where there is one: hackpadfs's own suite
// checks the modes of what it creates on the OS against the ones asked for.
func TestMain(m *testing.M) { hpview.Main(m) }
