//go:build !windows

package lockspec

// transientRenameError is false: outside Windows no rename error passes by
// itself.
func transientRenameError(error) bool { return false }
