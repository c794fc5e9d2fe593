// Package longrun is the committed long run of SmolLM2-135M (make
// model-results): context extension without fine-tuning, measured as in
// the YaRN paper's tables (Peng et al. 2023, https://arxiv.org/abs/2309.00071,
// §4.3.1 perplexity by context window, §4.3.2 passkey retrieval).
//
//   - NLL by position: each long text (texts/, SOURCES.md) is one window of
//     Config.Window tokens scored once per method (none, PI, NTK-aware,
//     dynamic NTK, YaRN, YaRN without its temperature, all at Config.Factor),
//     the NLL of every position kept (nll.go).
//   - Passkey retrieval: a five-digit key hidden at a depth of a filler
//     text of a given length, scored by whether greedy decoding would
//     return it (passkey.go).
//
// Every finished cell (a text under a method, one passkey trial) is written
// at once to a file of its own, and a run skips the cells already on disk
// (store.go): an interrupted run loses one cell at most. Each cell and each
// run records the command, commit, backend, machine and load
// (provenance.go); summary.json and summary.md are rebuilt from the cells
// at the end of every run (summary.go).
package longrun
