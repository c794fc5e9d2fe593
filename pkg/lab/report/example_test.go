package report_test

import (
	"fmt"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/lab/report"
)

// A model's recall of the pair at the first token (depth 0) in inputs of
// L, 2L and 4L tokens, by the distance from the value to the query, and
// the longest distance up to which it answers at least 90% of the probes.
func ExampleUsableContext() {
	c := lab.Quick(lab.DefaultConfig()) // L = 16
	c.Multiples, c.Depths = []int{1, 2, 4}, []float64{0}
	run := lab.Run{Name: "rope", Seed: 1}
	for i, correct := range []int{124, 118, 40} { // of 128 probes
		k := c.Multiples[i]
		n := k * c.TrainLen
		run.Recall = append(run.Recall, lab.RecallCell{Multiple: k, Length: n, Depth: 0,
			Distance: lab.ProbeDistance(n, lab.ProbeOffset(n, 0)), Defined: true, Correct: correct, N: 128})
	}
	r := &lab.Results{Config: c, Runs: []lab.Run{run}}

	rows, err := report.RecallByDistance(r, "rope", 0)
	if err != nil {
		panic(err)
	}
	for _, d := range rows {
		fmt.Printf("distance %2d (%2d tokens): %.3f [%.3f, %.3f]\n", d.Distance, d.Length, d.Rate, d.Lo, d.Hi)
	}
	usable, err := report.UsableContext(r, "rope", 0, 0.9)
	if err != nil {
		panic(err)
	}
	fmt.Println("usable context:", usable)
	// Output:
	// distance 14 (16 tokens): 0.969 [0.922, 0.988]
	// distance 30 (32 tokens): 0.922 [0.862, 0.957]
	// distance 62 (64 tokens): 0.312 [0.239, 0.397]
	// usable context: 30
}
