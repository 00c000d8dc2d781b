package board

// Restore is the board's restore (locking.Hold.RestoreMissing): for the
// complete temp file of a writer that died in its board write (the board
// missing, after a power cut inside the write's rename on exFAT), the
// board it was writing, whole: every item in it is of a dispatch the
// spawn-log already holds (the board is written after the spawn-log's
// commit). Its rank is the number of items; a temp file that does not
// parse (torn: cut before its sync) or holds no item restores nothing. A
// keep file (whole: the board as a settle or a restore committed it) is
// taken the same way: every board the lock writes is whole.
func Restore(data []byte, whole bool) (content []byte, rank uint64, ok bool) {
	b, err := Parse("", data)
	if err != nil || len(b.Items) == 0 {
		return nil, 0, false
	}
	return data, uint64(len(b.Items)), true
}
