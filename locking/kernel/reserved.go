package kernel

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ErrReservedName is matched (errors.Is) by the error of [Acquire] and
// [Update] when the file to guard is named as one this lock writes for
// another file: its lock (`ok.lock`), a name beside a lock
// (`ok.lock.incidents.jsonl`, `ok.lock.holder.json`), or [Update]'s temp
// file (`ok.tmp`). Update("ok.lock") would otherwise replace the lock file
// of `ok`, whose kernel lock a holder keeps, by another file: the next
// acquirer of `ok` would lock that one while the holder keeps the old.
// Nothing is touched when it is returned.
var ErrReservedName = errors.New("a name the lock uses for another file")

// checkGuarded is a *fs.PathError (Op "lock") wrapping ErrReservedName
// when name's last element ends in ".lock" or ".tmp" or holds ".lock.",
// nil otherwise.
func checkGuarded(name string) error {
	base := path.Base(name)
	why := ""
	switch {
	case strings.HasSuffix(base, lockSuffix):
		why = "the lock of " + strings.TrimSuffix(base, lockSuffix)
	case strings.Contains(base, lockSuffix+"."):
		why = "a name beside the lock of " + base[:strings.Index(base, lockSuffix+".")]
	case strings.HasSuffix(base, tmpSuffix) && len(base) > len(tmpSuffix):
		why = "the temp file of Update of " + strings.TrimSuffix(base, tmpSuffix)
	}
	if why == "" {
		return nil
	}
	return &fs.PathError{Op: "lock", Path: name, Err: fmt.Errorf("%w: it is %s", ErrReservedName, why)}
}
