package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// A cell is one model and seed of a lab run, with the evaluations made
// from its weights (RoPE's scalings, its fine-tunes): RunLab writes each
// as soon as it is finished, so that a run stopped half-way (a restart, a
// full disk) resumes where it stopped instead of from the start.
type cellFile struct {
	Commit string `json:"commit"` // the code that made it; "" outside a git checkout
	Config Config `json:"config"`
	Runs   []Run  `json:"runs"`
}

// cellPath is where the cell of name and seed is kept under dir ("" when
// nothing is written).
func cellPath(dir, name string, seed int64) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "cells", fmt.Sprintf("%s-seed%d.json", name, seed))
}

// readCell returns the runs of the cell at path when it was made by the
// same config as the run now, from a clean checkout of the same code: the
// same commit (p), or one whose code sameCode accepts. Anything else is
// trained again. A missing or unreadable cell is not an error: it is made
// again.
func readCell(path string, c Config, p Provenance, sameCode func(commit string) bool) ([]Run, bool) {
	if path == "" || p.Dirty {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var f cellFile
	if json.Unmarshal(data, &f) != nil || !reflect.DeepEqual(f.Config, c) || len(f.Runs) == 0 {
		return nil, false
	}
	if f.Commit != p.Commit && (sameCode == nil || f.Commit == "" || !sameCode(f.Commit)) {
		return nil, false
	}
	return f.Runs, true
}

// writeCell writes the runs of a finished cell to path ("": nowhere),
// through a temporary file so that a run killed while writing leaves no
// half cell.
func writeCell(path string, c Config, p Provenance, runs []Run) error {
	if path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(cellFile{Commit: p.Commit, Config: c, Runs: runs})
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	return nil
}
