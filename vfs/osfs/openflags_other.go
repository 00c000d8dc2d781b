//go:build !unix

package osfs

import "os"

// withoutPollDance returns flag: only Go on unix opens files with the
// poll dance (openflags_unix.go).
func withoutPollDance(flag int) int { return flag }

// dirFlags open a directory to list it.
const dirFlags = os.O_RDONLY
