package exercises

// UsableContext reads a recall evaluation like the ones lesson 8's lab
// writes for each run: accuracy[i] is the share of probes answered
// correctly when the value sits distances[i] tokens before the query, and
// defined[i] is false where the model has no answer at that distance at all
// (a learned table with no row that far); accuracy[i] then means nothing.
//
// It returns the run's usable context at threshold: the longest measured
// distance D such that every measurement at a distance up to D, D included,
// is defined and has an accuracy of at least threshold. It returns 0 when
// the shortest measured distance already falls short, and when there are no
// measurements. The measurements may come in any order (results merged from
// several files); the distances are positive and distinct, and the three
// slices have the same length. Leave them unchanged.
//
// Read lesson 8, “Recall that measures position”.
// Hints: exercises/README.md.
func UsableContext(distances []int, accuracy []float64, defined []bool, threshold float64) int {
	// TODO
	panic("not implemented yet: open exercises/22_usable_context.go")
}
