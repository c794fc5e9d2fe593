package longrun

import "fmt"

// Config is a run's size. DefaultConfig is the committed run;
// QuickConfig a small one for trying the code in minutes.
type Config struct {
	// Window is the tokens of each text scored from position 0.
	Window int `json:"window"`
	// Factor is the scaling factor of every method (2: 16,384 positions
	// for a model trained on 8,192).
	Factor float64 `json:"factor"`
	// OriginalLen is the trained context (llama.context_length, 8,192), the
	// L₀ of YaRN and dynamic NTK. Passkey lengths beyond it also run YaRN.
	OriginalLen int `json:"original_len"`
	// Texts are the names of the texts to score (TextNames).
	Texts []string `json:"texts"`
	// RangeEdges are the position ranges of the NLL table: [e₀, e₁), … .
	RangeEdges []int `json:"range_edges"`
	// PasskeyLengths are the prompt lengths in tokens, answer included.
	PasskeyLengths []int `json:"passkey_lengths"`
	// PasskeyDepths are where the key sits: the fraction of the filler
	// before it.
	PasskeyDepths []float64 `json:"passkey_depths"`
	// TrialsInside and TrialsBeyond are the trials per cell at lengths up
	// to OriginalLen and past it (where each costs more, and two methods run).
	TrialsInside int `json:"trials_inside"`
	TrialsBeyond int `json:"trials_beyond"`
	// ChunkSize is the query positions per call of the model.
	ChunkSize int `json:"chunk_size"`
}

// DefaultConfig is the committed long run: 16,384-token windows of the
// three texts, six methods at factor 2; passkeys at 2k–16k, three depths,
// 10 trials inside the trained length and 5 beyond it.
func DefaultConfig() Config {
	return Config{
		Window: 16384, Factor: 2, OriginalLen: 8192, Texts: TextNames,
		RangeEdges:     []int{0, 1024, 2048, 4096, 8192, 12288, 16384},
		PasskeyLengths: []int{2048, 4096, 8192, 12288, 16384},
		PasskeyDepths:  []float64{0.1, 0.5, 0.9},
		TrialsInside:   10, TrialsBeyond: 5,
		ChunkSize: 1024,
	}
}

// QuickConfig runs the same code at a small size: 512-token windows, a
// pretended trained length of 256 (so that "beyond" runs YaRN too),
// passkeys of 256 and 512 tokens at one depth, one trial.
func QuickConfig() Config {
	return Config{
		Window: 512, Factor: 2, OriginalLen: 256, Texts: TextNames,
		RangeEdges:     []int{0, 128, 256, 384, 512},
		PasskeyLengths: []int{256, 512},
		PasskeyDepths:  []float64{0.5},
		TrialsInside:   1, TrialsBeyond: 1,
		ChunkSize: 256,
	}
}

// Validate reports the first field that cannot run, by name.
func (c Config) Validate() error {
	switch {
	case c.Window < 2:
		return fmt.Errorf("longrun: window %d, want at least 2 tokens", c.Window)
	case !(c.Factor >= 1):
		return fmt.Errorf("longrun: factor %g, want at least 1", c.Factor)
	case c.OriginalLen < 1:
		return fmt.Errorf("longrun: original length %d, want at least 1", c.OriginalLen)
	case c.ChunkSize < 1:
		return fmt.Errorf("longrun: chunk size %d, want at least 1", c.ChunkSize)
	case c.TrialsInside < 0 || c.TrialsBeyond < 0:
		return fmt.Errorf("longrun: trials %d inside and %d beyond, want none negative", c.TrialsInside, c.TrialsBeyond)
	case len(c.RangeEdges) < 2 || c.RangeEdges[0] != 0 || c.RangeEdges[len(c.RangeEdges)-1] != c.Window:
		return fmt.Errorf("longrun: range edges %v, want 0 … window (%d)", c.RangeEdges, c.Window)
	}
	for _, d := range c.PasskeyDepths {
		if !(d >= 0 && d <= 1) {
			return fmt.Errorf("longrun: passkey depth %g, want a fraction in [0, 1]", d)
		}
	}
	for _, n := range c.Texts {
		if _, err := LoadText(n); err != nil {
			return err
		}
	}
	return nil
}

// passkeyMethods returns the methods a passkey cell of length n runs: none
// always, YaRN too past the trained length.
func (c Config) passkeyMethods(n int) []string {
	if n > c.OriginalLen {
		return []string{"none", "yarn"}
	}
	return []string{"none"}
}

// trials returns the trials per cell at length n.
func (c Config) trials(n int) int {
	if n > c.OriginalLen {
		return c.TrialsBeyond
	}
	return c.TrialsInside
}
