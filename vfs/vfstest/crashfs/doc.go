// Package crashfs is an in-memory [vfs.FS] that models what a power cut
// leaves on the disk: a test runs a workload on it, then asks, for a cut
// after any operation of the run, for the states the disk may show, each
// as a fresh FS on which "the next boot" runs.
//
// # The model
//
// It is the conservative POSIX floor: nothing is on the disk until a sync
// put it there, and what is not synced may be on the disk in part, in the
// order it was made.
//
// Every file and folder is an inode with a live view (what every caller
// sees) and a durable view:
//
//   - a file holds its content at its last File.Sync (empty when created)
//     and the ordered writes and truncations since;
//   - a folder holds its entries at its last sync (a folder opened
//     read-only and Synced, as vfs.SyncDir does; empty when made) and the
//     ordered entry operations since: create, mkdir, link, rename, remove.
//
// A new name is durable only once its folder is synced; a file's data only
// once the file is. Syncing a folder commits its entries, not the content
// of its files; syncing a file commits its content, not its name.
//
// At a cut each file shows its synced content plus a prefix of its later
// writes, and optionally the next write torn at a block boundary (the
// first b bytes of it, where the write's offset plus b is a multiple of
// Options.BlockSize); each folder shows its synced entries plus a prefix of
// its later operations. Files and folders are independent of each other:
// any combination of their prefixes is a state. The next boot walks the
// tree from the root, so a file whose name did not land is gone with its
// content, and a folder whose entry did not land is gone with all under it.
//
// A rename within one folder is one operation of that folder: it lands
// whole or not at all, so the states are only before and after. On a
// volume modelled as exFAT (Options.ExFAT) it is, as Linux's exFAT driver
// writes it with no barrier, three entry writes of which any subset may
// land: the new entry, the old entry's removal, the replaced target's
// removal. A cut can then leave both names, or neither the target's old
// nor its new content, or the target's name held by two entries (the new
// one landed, the replaced one not removed). The next boot keeps both, as
// Linux's driver does, and a cut offers both orders of them on the disk:
// the new entry behind the replaced one, or ahead of it in a free slot.
//
// A folder's live view holds a name's entries in that order, though only
// a next boot of such a state ever has two. Lookups (Stat, OpenFile,
// Remove, Rename, Link, Chtimes, every folder of a path) find the first;
// a listing shows every entry, a name held twice twice, adjacent. Removing
// the name, or renaming it to another, takes the first away, and lookups
// then find the other. A rename over it replaces the first and puts the
// new entry behind the other, so that lookups find the older entry: what
// exFAT shows, once its dentry cache forgets, if the new entry landed
// behind. A create, Mkdir or Link onto it meets an existing name, and a
// folder holding any entry is not empty. A folder's sync commits every
// entry in order.
//
// A rename across two folders is two operations, one in each folder's
// list, each landing with its own folder's prefix: in the target's folder
// the new entry (with the replaced target's removal, atomically unless
// exFAT), in the source's folder the old entry's removal. A cut can then
// leave the file under both names or under neither; only syncing both
// folders makes it durable. That is stricter than ext4 or xfs, whose
// journal commits a rename whole.
//
// Times are not subject to a cut: a file shows the time it had at the cut.
// Not modelled: reordering of one file's writes beyond a prefix and one
// torn block, the content of a file on the disk before its first sync
// (garbage, zeros), metadata-only journaling (ext4's data=ordered, its
// forced flush on a replacing rename), link counts, and the new entry of
// an exFAT rename over a name already held twice ahead of the other once
// later operations of its folder landed too (a cut offers both orders only
// where that rename is the last of its folder's operations to land), nor
// exFAT's clusters: a rename to a longer name cut between its new entry and
// the old one's removal leaves two entries on one cluster chain, and
// removing either frees the chain under the other; here a removal frees no
// inode.
//
// # Using it
//
// [New] makes an empty volume; [FS.Ops] counts the operations recorded so
// far (creates, writes, truncations, syncs, mkdirs, links, renames,
// removes, Chtimes: what changes the volume); [FS.CutAt] gives the [Cut]
// after op n, and [Cut.States] its states: the extremes and each item's
// choices one at a time, then combinations sampled from a seeded
// *rand.Rand. [State.FS] is the next boot's volume, with nothing pending
// and no handle open; [State.String] says what landed and what the next
// boot finds.
//
// The run is kept as a log, and a cut replays it (from the last cut asked
// for when that was earlier), so memory is the log (every byte written)
// and one copy of the volume per cut in use; states are built when asked
// for. A copy of the volume holds every inode the run made, removed ones
// too, so it grows with the files made, not only with those alive: a run
// of a few thousand operations on small files costs a few megabytes and
// about a millisecond per cut.
package crashfs
