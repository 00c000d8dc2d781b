package estate

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// reservedOnWindowsVolumes are the characters exFAT, FAT and NTFS (as
// Windows writes them) hold in no file name, though the agent name rules
// ([ValidateAgent]) allow them: they are fine on ext4, xfs, btrfs or tmpfs.
const reservedOnWindowsVolumes = `:*?"<>|`

// NameRefusedError is bad input for this volume: the agent's name is valid
// ([ValidateAgent]) but the volume refused it as a folder name when
// agents/<Agent> was made (exFAT and NTFS hold no ':' in a name, for
// one; exfat-fuse says ENOENT, the kernel's drivers EINVAL). Nothing was
// made. errors.Is(err, [ErrInvalidAgent]) is true, and errors.Unwrap gives
// the volume's own error.
type NameRefusedError struct {
	// Agent is the name as given.
	Agent string
	// Err is the volume's error for the mkdir of agents/<Agent>.
	Err error
}

// Error names the agent, the folder and the volume's error, and the
// characters such volumes refuse when the name holds one.
func (e *NameRefusedError) Error() string {
	msg := fmt.Sprintf("the volume refused agent %s as a folder name (%s): %v",
		strconv.QuoteToASCII(e.Agent), AgentDir(e.Agent), e.Err)
	if strings.ContainsAny(e.Agent, reservedOnWindowsVolumes) {
		msg += `; exFAT, FAT and NTFS hold none of : * ? " < > | in a name`
	}
	return msg
}

// Is makes errors.Is(err, ErrInvalidAgent) true.
func (e *NameRefusedError) Is(target error) bool { return target == ErrInvalidAgent }

// Unwrap is the volume's error.
func (e *NameRefusedError) Unwrap() error { return e.Err }

// nameRefused is a *NameRefusedError when err, the error of making
// agents/<agent>, is the volume refusing that name: ENOENT (exfat-fuse),
// EINVAL, EILSEQ or, on Windows, ERROR_INVALID_NAME, while agents/ is a
// folder and agents/<agent> is still missing (its lstat says not found, or
// refuses the name as the mkdir did). Anything else (agents/ gone,
// a refusal to write, a full volume) is err as it was.
func nameRefused(fsys vfs.FS, agent string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) && !refusedName(err) {
		return err
	}
	if fi, lerr := fsys.Lstat(AgentsDir); lerr != nil || !fi.IsDir() {
		return err
	}
	// Still missing: not found, or its lstat refused the name too (as
	// Windows' os.Root does for a '?').
	if _, lerr := fsys.Lstat(AgentDir(agent)); !errors.Is(lerr, fs.ErrNotExist) && !refusedName(lerr) {
		return err
	}
	return &NameRefusedError{Agent: agent, Err: err}
}

// refusedName reports the errnos of a name a volume cannot hold: EINVAL,
// EILSEQ and, on Windows, ERROR_INVALID_NAME.
func refusedName(err error) bool {
	return err != nil && (errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EILSEQ) || invalidNameErrno(err))
}
