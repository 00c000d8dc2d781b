package estate

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/pa-toolkit/pa/vfs"
)

// ErrSpelling is matched (errors.Is) by every *SpellingError.
var ErrSpelling = errors.New("agent name spelled otherwise on disk")

// SpellingError is bad input: the agent's folder agents/<Agent> resolves to
// a folder that the volume lists under another name, OnDisk. A volume that
// ignores case (exFAT, NTFS, APFS by default) or the Unicode form of a name
// (APFS, HFS+) opens agents/Log for agents/log: the two agents would share
// one spawn-log, one lock and one board. It is returned before anything is
// written.
type SpellingError struct {
	// Agent is the name as given.
	Agent string
	// OnDisk is the folder's name as agents/ lists it: equal to Agent under
	// case folding (strings.EqualFold) or the same file, or "" when the
	// listing holds no entry pa can match (a volume folding in a way Go's
	// case folding does not, say).
	OnDisk string
}

// Error names both spellings.
func (e *SpellingError) Error() string {
	if e.OnDisk == "" {
		return fmt.Sprintf("agent %s resolves to a folder of %s that is listed under another name", strconv.QuoteToASCII(e.Agent), AgentsDir)
	}
	return fmt.Sprintf("agent %s is spelled %s on disk (%s)", strconv.QuoteToASCII(e.Agent), strconv.QuoteToASCII(e.OnDisk), AgentDir(e.OnDisk))
}

// Is makes errors.Is(err, ErrSpelling) true.
func (e *SpellingError) Is(target error) bool { return target == ErrSpelling }

// CheckSpelling returns a *SpellingError when agent's folder agents/<agent>
// exists (lstat finds it) but agents/ lists no entry spelled exactly agent:
// the volume took the name for a folder spelled otherwise. The folder
// whose name it is, OnDisk, is the entry equal to agent under case folding
// (strings.EqualFold) or, failing that, the entry that is the same file
// (equal [vfs.FileKey]s: a name that differs only in its Unicode form, NFC
// against NFD on APFS, which no case folding matches; exFAT over FUSE keys
// each spelling apart, so case folding comes first).
//
// Why the listing, and only when the name resolves: on a volume that keeps
// case (ext4, xfs, btrfs, tmpfs) agents/Log and agents/log are two folders,
// each listed under its own name, and two agents; they are allowed there.
// Only a name that reaches a folder listed under another spelling is the
// merge the volume makes, and that is what is refused. A missing folder is
// no error (nil): a new agent; [MakeAgentDir] checks again once its folder
// is made, so that two writers creating Log and log at once cannot merge.
//
// Only the agent's own name is checked, not agents/ itself: an estate
// whose agents/ is listed as Agents/ on a volume that ignores case is one
// folder there, which every agent's name reaches alike, so no two agents
// merge through it; refusing it would block an estate that works.
//
// It is nil too when agent is not valid ([ValidateAgent] reports that) or
// when the folder's name or agents/ cannot be read (a listing refused, a
// name leading out of the estate): the command's own reads report that.
// It writes nothing.
func CheckSpelling(fsys vfs.FS, agent string) error {
	if ValidateAgent(agent) != nil {
		return nil
	}
	dir := AgentDir(agent)
	fi, err := lstat(fsys, dir)
	if err != nil {
		return nil
	}
	entries, err := fsys.ReadDir(AgentsDir)
	if err != nil {
		return nil
	}
	folded := ""
	for _, e := range entries {
		switch {
		case e.Name() == agent:
			return nil
		case folded == "" && strings.EqualFold(e.Name(), agent):
			folded = e.Name()
		}
	}
	if folded == "" {
		folded = sameFile(fsys, fi, entries)
	}
	return &SpellingError{Agent: agent, OnDisk: folded}
}

// sameFile is the name of the entry of agents/ that is the file fi
// describes (their [vfs.FileKey]s equal), "" when none is or fi carries no
// key.
func sameFile(fsys vfs.FS, fi fs.FileInfo, entries []fs.DirEntry) string {
	key, ok := vfs.KeyOf(fi)
	if !ok {
		return ""
	}
	for _, e := range entries {
		if other, err := lstat(fsys, AgentDir(e.Name())); err == nil {
			if k, ok := vfs.KeyOf(other); ok && k == key {
				return e.Name()
			}
		}
	}
	return ""
}

// MakeAgentDir makes agent's folder agents/<agent> (and agents/) when
// missing, as [vfs.MkdirAll] does, with [CheckSpelling] before and after:
// before, so that a name the volume resolves to a folder spelled otherwise
// makes nothing; after, so that of two writers that create Log and log at
// once on a volume that ignores case, the one whose mkdir found the other's
// folder is refused before it writes in it. Errors: a *SpellingError, a
// *NameRefusedError when the volume refuses the agent's name as a folder
// name (agents/a:b on exFAT), or MkdirAll's.
func MakeAgentDir(fsys vfs.FS, agent string) error {
	if err := CheckSpelling(fsys, agent); err != nil {
		return err
	}
	if err := vfs.MkdirAll(fsys, AgentDir(agent), 0o755); err != nil {
		return nameRefused(fsys, agent, err)
	}
	return CheckSpelling(fsys, agent)
}

// lstat is fsys's Lstat.
func lstat(fsys vfs.FS, name string) (fs.FileInfo, error) { return fsys.Lstat(name) }
