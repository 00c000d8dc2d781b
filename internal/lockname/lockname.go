// Package lockname refuses to guard a file under a name a lock writes for
// another file: both locks (internal/lockspec, locking/kernel) name their
// lock `<file>.lock` and the names beside it `<file>.lock.<...>`, so a file
// guarded as `ok.lock` would be written over the lock of `ok`.
package lockname

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ErrReserved is matched (errors.Is) by the error of [Check]: the name is
// one a lock writes for another file. Each lock exports it as its
// ErrReservedName.
var ErrReserved = errors.New("a name the lock uses for another file")

// Check returns a *fs.PathError (Op "lock", Path name) wrapping ErrReserved
// and saying whose name it is when name's last element ends in ".lock"
// (the lock of the file before it), holds ".lock." (a name beside that
// lock), or is one that other says is another file's (other returns whose,
// such as "a tmp file of ok", or ""); nil otherwise.
func Check(name string, other func(base string) string) error {
	base := path.Base(name)
	why := ""
	switch {
	case strings.HasSuffix(base, ".lock"):
		why = "the lock of " + strings.TrimSuffix(base, ".lock")
	case strings.Contains(base, ".lock."):
		why = "a name beside the lock of " + base[:strings.Index(base, ".lock.")]
	case other != nil:
		why = other(base)
	}
	if why == "" {
		return nil
	}
	return &fs.PathError{Op: "lock", Path: name, Err: fmt.Errorf("%w: it is %s", ErrReserved, why)}
}
