package report

import "github.com/posenc/course/pkg/lab"

// DistanceRecall is recall at one distance from the probed value to the
// query, pooled over seeds.
type DistanceRecall struct {
	Distance int
	Length   int // the input length it was measured in
	lab.RecallStat
}

// RecallByDistance returns name's recall at depth for every evaluation
// length, in order of distance: at a fixed depth a longer input puts the
// pair farther back (distance n−2−ProbeOffset(n, depth)).
func RecallByDistance(r *lab.Results, name string, depth float64) ([]DistanceRecall, error) {
	var out []DistanceRecall
	for _, k := range r.Config.Multiples {
		s, err := r.RecallAt(name, k, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, DistanceRecall{Distance: s.Distance, Length: k * r.Config.TrainLen, RecallStat: s})
	}
	return out, nil
}

// UsableContext returns the longest distance at which name's recall at
// depth is at least threshold, every shorter distance measured also
// reaching it; 0 if even the shortest falls short. It is what exercise 22
// computes, here on the lab's results.
func UsableContext(r *lab.Results, name string, depth, threshold float64) (int, error) {
	rows, err := RecallByDistance(r, name, depth)
	if err != nil {
		return 0, err
	}
	usable := 0
	for _, d := range rows {
		if !d.Defined || d.Rate < threshold {
			break
		}
		usable = d.Distance
	}
	return usable, nil
}
