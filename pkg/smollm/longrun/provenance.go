package longrun

import (
	"runtime"
	"time"

	"github.com/posenc/course/internal/machine"
	"github.com/posenc/course/pkg/lab/report"
)

// ResultPaths are the git pathspecs, relative to the repository root, of
// the code and data that decide the long run's numbers: the model (its
// attention in key blocks, its scoring and its rounding of RoPE
// included) and its attention kernel, its reader and tokenizer, the course's RoPE (host tables and
// graph), this package and its command, and the texts. Tests and the
// lesson's experiments (pkg/smollm/experiments.go) do not count, nor do
// the run's time estimate (estimate.go) and this list itself.
var ResultPaths = []string{
	"pkg/posenc", "pkg/posgraph", "pkg/gguf", "pkg/bpe",
	"pkg/smollm/model.go", "pkg/smollm/run.go", "pkg/smollm/weights.go",
	"pkg/smollm/keyblocks.go", "pkg/smollm/score.go", "pkg/smollm/find.go",
	"pkg/smollm/precision.go", "pkg/cpuattention",
	"pkg/smollm/longrun", "cmd/modelresults",
	":(exclude)*_test.go", ":(exclude)**/testdata/**",
	":(exclude)pkg/smollm/longrun/texts/SOURCES.md",
	":(exclude)pkg/smollm/longrun/estimate.go", ":(exclude)pkg/smollm/longrun/provenance.go",
}

// Provenance says where a cell or a run came from.
type Provenance struct {
	Command   string     `json:"command"`
	Commit    string     `json:"commit"`
	Dirty     bool       `json:"dirty"` // a file of ResultPaths differed from the commit
	Backend   string     `json:"backend"`
	GoVersion string     `json:"go_version"`
	CPU       string     `json:"cpu"`
	Cores     int        `json:"cores"`
	Load      [3]float64 `json:"load"` // when the cell started (or the run, for a run)
	Started   string     `json:"started"`
}

// CurrentCode returns the commit checked out in the git repository at dir
// and whether any of ResultPaths has uncommitted changes; outside a git
// checkout, an empty commit.
func CurrentCode(dir string) (commit string, dirty bool) {
	return report.CodeState(dir, ResultPaths)
}

// NewProvenance returns the provenance of work starting now.
func NewProvenance(command, dir, backend string) Provenance {
	commit, dirty := CurrentCode(dir)
	return Provenance{Command: command, Commit: commit, Dirty: dirty, Backend: backend,
		GoVersion: runtime.Version(), CPU: machine.CPUModel(), Cores: runtime.NumCPU(),
		Load: machine.LoadAverage(), Started: time.Now().UTC().Format(time.RFC3339)}
}

// now returns p again with the time and load of now, for a cell.
func (p Provenance) now() Provenance {
	p.Load = machine.LoadAverage()
	p.Started = time.Now().UTC().Format(time.RFC3339)
	return p
}
