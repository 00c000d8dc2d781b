package lockspec

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ErrReservedName is matched (errors.Is) by the error of an acquire whose
// guarded file's name is one the lock writes for another file: another
// file's lock (`ok.lock` is the lock of `ok`), a name beside a lock
// (`ok.lock.incidents.jsonl`, `ok.lock.pending-...`), or a temp or keep
// file of another file's commit (`ok.tmp-<host>-<pid>-<hex>`). Guarding
// such a name would let one file's writes replace, or a sweep remove,
// what another file's lock relies on: Update("ok.lock") would overwrite a
// live holder's lock of `ok`. Nothing is touched when it is returned.
var ErrReservedName = errors.New("a name the lock uses for another file")

// checkGuarded is checkName's check for a name to be guarded (Acquire,
// so Update and UpdateMapped): a *fs.PathError (Op "lock") that wraps
// ErrReservedName, saying which other file the name belongs to, when
// name's last element is another file's lock, a name beside a lock, or a
// temp or keep file of another file's commit.
func checkGuarded(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	base := path.Base(name)
	why := ""
	switch {
	case strings.HasSuffix(base, ".lock"):
		why = "the lock of " + strings.TrimSuffix(base, ".lock")
	case strings.Contains(base, ".lock."):
		why = "a name beside the lock of " + base[:strings.Index(base, ".lock.")]
	default:
		for _, marker := range []string{".tmp-", ".keep-"} {
			i := strings.LastIndex(base, marker)
			if i <= 0 {
				continue
			}
			if k, _ := ownerFromSuffix(base[i+len(marker):]); k == ownerInName {
				why = "a " + strings.Trim(marker, ".-") + " file of " + base[:i]
			}
		}
	}
	if why == "" {
		return nil
	}
	return &fs.PathError{Op: "lock", Path: name, Err: fmt.Errorf("%w: it is %s", ErrReservedName, why)}
}
