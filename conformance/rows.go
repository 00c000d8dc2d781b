package conformance

// Row is one row of the table "States and crash points": its id and its
// title, the table's first column. R01..R49 are the spec's
// (spec/rows.tsv); R50..R57 are this implementation's, for the proof of
// death (docs/spawn-log-lock.md, "Proof of death").
type Row struct {
	// ID is R01..R57.
	ID string
	// Title is the row's first column, as spec/rows.tsv has it (R01..R49)
	// or docs/spawn-log-lock.md (R50..R57).
	Title string
}

// specRows is how many of Rows are the spec's own.
const specRows = 49

// Rows are the spec's 49 rows, in the table's order, then the 8 rows of
// the proof of death.
var Rows = []Row{
	{"R01", "Free"},
	{"R02", "A live holder, short"},
	{"R03", "A live holder of any age past the stale window"},
	{"R04", "A dead holder on this host (also a lock with no `hostname`)"},
	{"R05", "An empty or unreadable lock, of any age"},
	{"R06", "A holder on another host, of any age"},
	{"R07", "A holder whose pid is reused, of any age"},
	{"R08", "A lock whose times are skewed (the clock)"},
	{"R09", "Two breakers of one dead-holder lock"},
	{"R10", "A breaker that judged a lock since replaced"},
	{"R11", "A breaker stalled past any window holding its claim"},
	{"R12", "Eight writers at once against a dead-holder lock, 25 trials"},
	{"R13", "`link()` fails with a code other than `ENOENT` or `EEXIST`"},
	{"R14", "A publish whose write or close fails after its exclusive step"},
	{"R15", "A releaser stalled past any window"},
	{"R16", "A releaser resuming inside another holder's fence-to-rename window"},
	{"R17", "A sweeper stalled past any window between its judgement and its unlink"},
	{"R18", "`unlock` with no lock"},
	{"R19", "`unlock` on a dead holder"},
	{"R20", "`unlock` on a live holder, a holder on another host or a reused pid"},
	{"R21", "`unlock --force`"},
	{"R22", "A lock lost under a holder (fence and release)"},
	{"R23", "`pa board check` with a held lock"},
	{"R24", "The board write in `pa dispatch` after the lock is lost"},
	{"R25", "Leftovers in the earlier shapes with a dead owner"},
	{"R26", "Leftovers whose owner is alive, on another host or unreadable"},
	{"R27", "Names unique per attempt"},
	{"R28", "Kill in acquire, after the pending file is written"},
	{"R29", "Kill in acquire, after `open wx` and before the write"},
	{"R30", "Kill in acquire, after the lock is published"},
	{"R31", "Kill in the sweep, between its judgement and its unlink"},
	{"R32", "Kill in a break, after the judgement"},
	{"R33", "Kill in a break, after the claim"},
	{"R34", "Kill in a break, after the confirm"},
	{"R35", "Kill in a break, after the rename"},
	{"R36", "Kill in a break, after the moved lock is removed"},
	{"R37", "Kill in a break that moved a newer lock, before the put-back"},
	{"R38", "Kill in a break's put-back, after `open wx` and before the write"},
	{"R39", "Kill in a break, after the put-back"},
	{"R40", "Kill while holding, after the spawn-log is read"},
	{"R41", "Kill in the commit, after the temp file is written"},
	{"R42", "Kill in the commit, after the fence"},
	{"R43", "Kill after the commit rename, before release"},
	{"R44", "Kill in release, after the rename"},
	{"R45", "Kill in release, after the moved lock is removed"},
	{"R46", "Kill in a release that moved a newer lock, before the put-back"},
	{"R47", "Kill in a release's put-back, after `open wx` and before the write"},
	{"R48", "Kill in a release, after the put-back"},
	{"R49", "Kill in `unlock`"},
	{"R50", "A live holder in another pid namespace of this host"},
	{"R51", "A holder of another pid namespace that died"},
	{"R52", "A pid reused by an unrelated live process, with more recorded"},
	{"R53", "A holder of an earlier boot of this host"},
	{"R54", "A holder stopped with SIGSTOP"},
	{"R55", "A lock put back by copy (another file)"},
	{"R56", "A volume whose kernel locks are refused or do not exclude"},
	{"R57", "The spec's four-field lock"},
}
