package longrun

import (
	"fmt"

	"github.com/posenc/course/pkg/posenc"
)

// Method is a way to run the model past its trained length.
type Method struct {
	Name    string         // none, pi, ntk, dynamic, yarn, yarn-no-temp
	Scaling posenc.Scaling // SeqLen of dynamic NTK is set per sequence (Engine)
}

// Methods returns the six methods of the NLL table at factor s for a model
// trained on originalLen positions: none; PI (Chen et al. 2023); NTK-aware
// (bloc97 2023); dynamic NTK (the factor grows with the sequence, as
// transformers' "dynamic" computes it for a sequence scored at once);
// YaRN (Peng et al. 2023); and YaRN with its attention temperature
// 0.1·ln s + 1 replaced by 1, to show what the temperature does.
func Methods(s float64, originalLen int) []Method {
	noTemp := posenc.YaRNScaling(s, originalLen)
	noTemp.AttentionFactor = 1
	return []Method{
		{"none", posenc.Scaling{}},
		{"pi", posenc.LinearScaling(s)},
		{"ntk", posenc.NTKScaling(s)},
		{"dynamic", posenc.DynamicNTKScaling(s, originalLen, originalLen)},
		{"yarn", posenc.YaRNScaling(s, originalLen)},
		{"yarn-no-temp", noTemp},
	}
}

// method returns the method called name among ms.
func method(ms []Method, name string) (Method, error) {
	for _, m := range ms {
		if m.Name == name {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("longrun: no method %q", name)
}
