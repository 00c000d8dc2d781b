package osfs

import (
	"errors"
	"os"
	"sync"
)

// IsEscape reports whether err is the refusal of a name that leads out of
// the root: "..", an absolute name, or a symbolic link whose target lies
// outside (the os package's "path escapes from parent", which matches no
// sentinel of io/fs). pa uses it to say so in plain words.
func IsEscape(err error) bool {
	if err == nil {
		return false
	}
	if sentinel := escapeErr(); sentinel != nil {
		return errors.Is(err, sentinel)
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == "path escapes from parent" {
			return true
		}
	}
	return false
}

// escapeErr is the os package's own escape error, learned once by asking a
// root for its parent; nil when that cannot be done here.
var escapeErr = sync.OnceValue(func() error {
	r, err := os.OpenRoot(os.TempDir())
	if err != nil {
		return nil
	}
	defer r.Close()
	_, err = r.Lstat("..")
	for e := err; e != nil; e = errors.Unwrap(e) {
		if errors.Unwrap(e) == nil {
			return e
		}
	}
	return nil
})
