//go:build !unix

package osfs

// withoutPollDance returns flag: only Go on unix opens files with the
// poll dance (openflags_unix.go).
func withoutPollDance(flag int) int { return flag }
