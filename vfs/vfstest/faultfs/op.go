package faultfs

import "strconv"

// Op names an operation that rules and hooks can act on.
type Op int

// The operations of the FS (and of a watch it arms), then those of a File
// returned by OpenFile.
const (
	OpOpenFile  Op = iota + 1 // FS.OpenFile
	OpStat                    // FS.Stat
	OpReadDir                 // FS.ReadDir
	OpMkdir                   // FS.Mkdir
	OpLink                    // FS.Link
	OpRename                  // FS.Rename and FS.RenameNoReplace
	OpRemove                  // FS.Remove
	OpChtimes                 // FS.Chtimes
	OpWatch                   // FS.WatchRemoval
	OpWait                    // Watch.Wait, of a watch armed by WatchRemoval
	OpQueue                   // FS.JoinQueue
	OpQueueWait               // Place.Wait, of a place joined by JoinQueue
	OpOpenRoot                // FS.OpenRoot
	OpRead                    // File.Read
	OpWrite                   // File.Write and File.WriteAt
	OpSync                    // File.Sync
	OpClose                   // File.Close
)

var opNames = [...]string{
	OpOpenFile:  "open",
	OpStat:      "stat",
	OpReadDir:   "readdir",
	OpMkdir:     "mkdir",
	OpLink:      "link",
	OpRename:    "rename",
	OpRemove:    "remove",
	OpChtimes:   "chtimes",
	OpWatch:     "watch",
	OpWait:      "wait",
	OpQueue:     "queue",
	OpQueueWait: "queuewait",
	OpOpenRoot:  "openroot",
	OpRead:      "read",
	OpWrite:     "write",
	OpSync:      "sync",
	OpClose:     "close",
}

// String returns the operation's name as it appears in a *fs.PathError or
// *os.LinkError ("open", "write", "rename", ...).
func (op Op) String() string {
	if op.valid() {
		return opNames[op]
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

func (op Op) valid() bool { return op >= OpOpenFile && op <= OpClose }

// twoNames reports whether op acts on two names, so that its errors are
// *os.LinkError.
func (op Op) twoNames() bool { return op == OpLink || op == OpRename }
