package posenc

import (
	"testing"

	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// FuzzParseHFConfig: any bytes give a configuration that validates, or a
// *ParamError, never a panic.
func FuzzParseHFConfig(f *testing.F) {
	for _, name := range modelconfigs.Names() {
		data, err := modelconfigs.Config(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"model_type": "x", "num_hidden_layers": 1, "head_dim": 3, "max_position_embeddings": 1, "rope_theta": 1}`))
	f.Add([]byte(`{"text_config": 3}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseHFConfig(data)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		for i, l := range m.Layers {
			if l.RoPE != nil {
				if err := l.RoPE.Validate(); err != nil {
					t.Fatalf("layer %d: %v", i, err)
				}
			}
		}
	})
}
