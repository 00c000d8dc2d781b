//go:build !windows

package estate

// invalidNameErrno is false here: the errnos of a refused name
// (ENOENT, EINVAL, EILSEQ) are checked by nameRefused itself.
func invalidNameErrno(error) bool { return false }
