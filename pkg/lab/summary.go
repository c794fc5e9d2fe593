package lab

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Summary returns the headline table of r: each run's mean loss at every
// evaluation length and its passkey accuracy at every distance, then the
// wall time and machine.
func Summary(r *Results) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "run\t")
	for _, k := range r.Config.Multiples {
		fmt.Fprintf(w, "loss %d×L\t", k)
	}
	fmt.Fprint(w, "tok/s\t|")
	for _, d := range r.Config.PasskeyDistances {
		fmt.Fprintf(w, "d=%d\t", d)
	}
	fmt.Fprintln(w)
	for _, run := range r.Runs {
		fmt.Fprintf(w, "%s\t", run.Name)
		for _, l := range run.Lengths {
			if l.Defined {
				fmt.Fprintf(w, "%.3f\t", l.Mean)
			} else {
				fmt.Fprint(w, "—\t")
			}
		}
		if run.Train != nil {
			fmt.Fprintf(w, "%.0f\t|", run.Train.TokensPerSecond)
		} else {
			fmt.Fprint(w, "\t|")
		}
		for _, p := range run.Passkey {
			if p.Defined {
				fmt.Fprintf(w, "%.2f\t", p.Accuracy)
			} else {
				fmt.Fprint(w, "—\t")
			}
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	fmt.Fprintf(&b, "L = %d; loss in nats per character; passkey accuracy (chance %.2f) by distance; — undefined (no positions that far)\n",
		r.Config.TrainLen, 1.0/NumValues)
	fmt.Fprintf(&b, "%.0f s on %s (%d cores, load %.2f → %.2f), backend %s, %s\n", r.WallSeconds,
		r.Environment.CPU, r.Environment.Cores, r.Environment.LoadBefore[0], r.Environment.LoadAfter[0], r.Environment.Backend, r.Environment.GoVersion)
	return b.String()
}
