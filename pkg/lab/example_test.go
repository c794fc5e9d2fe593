package lab_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/posenc/course/pkg/lab"
)

// A recall probe of 32 tokens: the probed pair a quarter of the way in,
// one distractor pair, and the probed key again at the end, whose value
// the model should predict next.
func ExampleProbe() {
	filler := lab.Encode([]byte(strings.Repeat("THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG. ", 2)))
	rng := rand.New(rand.NewPCG(1, 2))
	const n, depth = 32, 0.25
	inputs, value, err := lab.Probe(rng, filler, 0, n, depth, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println(lab.Decode(inputs), "→", lab.Decode([]int32{value}))
	o := lab.ProbeOffset(n, depth)
	fmt.Printf("pair at %d, %d positions from the query\n", o, lab.ProbeDistance(n, o))
	// Output:
	// THE QUI⟨k6⟩u BROWN FOX J⟨k8⟩nPS OVER ⟨k6⟩ → u
	// pair at 7, 23 positions from the query
}

// Recall of 5 probes out of 10, and its 95% Wilson interval.
func ExampleWilson() {
	lo, hi := lab.Wilson(5, 10)
	fmt.Printf("0.5 [%.4f, %.4f]\n", lo, hi)
	// Output: 0.5 [0.2366, 0.7634]
}
