package lab

import (
	"encoding/gob"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// A checkpoint holds a model's trained weights (not the optimizer's state):
// each float32 variable's path, dimensions and values, gob-encoded.
type savedVariable struct {
	Path string
	Dims []int
	Data []float32
}

// isWeight reports whether a variable is one of the model's weights rather
// than training state (the optimizer's moments, the step counter).
func isWeight(v *model.Variable) bool {
	return v.Trainable && !strings.Contains(v.Path(), "optimizer") && !strings.Contains(v.Path(), "Adam")
}

// SaveCheckpoint writes the weights in store to path.
func SaveCheckpoint(path string, store *model.Store) error {
	var saved []savedVariable
	for v := range store.IterVariables() {
		if !isWeight(v) {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return err
		}
		saved = append(saved, savedVariable{Path: v.Path(), Dims: t.Shape().Dimensions, Data: tensors.MustCopyFlatData[float32](t)})
	}
	sort.Slice(saved, func(i, j int) bool { return saved[i].Path < saved[j].Path })
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(saved); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// LoadCheckpoint returns a store holding the weights saved at path.
func LoadCheckpoint(path string) (*model.Store, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var saved []savedVariable
	if err := gob.NewDecoder(f).Decode(&saved); err != nil {
		return nil, fmt.Errorf("lab: checkpoint %s: %w", path, err)
	}
	store := model.NewStore()
	for _, s := range saved {
		t := tensors.FromFlatDataAndDimensions(s.Data, s.Dims...)
		if _, err := store.CreateVariable(s.Path, t); err != nil {
			return nil, fmt.Errorf("lab: checkpoint %s: %w", path, err)
		}
	}
	return store, nil
}
