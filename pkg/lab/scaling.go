package lab

import "github.com/posenc/course/pkg/posenc"

// Methods are the ways of scaling RoPE at evaluation time, without
// training, that the lab compares, with two controls:
//
//	pi           position interpolation, factor n/L (Chen et al. 2023)
//	ntk          NTK-aware base scaling, factor n/L (bloc97 2023)
//	dynamic      dynamic NTK: the base from the current length, as Hugging
//	             Face's "dynamic" rope_scaling computes it (factor f)
//	ntk-eff      control for dynamic: static NTK with dynamic's effective
//	             factor at n, f·n/L − (f−1) (3, 7, 15 at 2L, 4L, 8L for f = 2)
//	yarn         YaRN, factor n/L, with its attention temperature (Peng et al. 2023)
//	yarn-notemp  control for yarn: the same frequencies, temperature 1
var Methods = []string{"pi", "ntk", "dynamic", "ntk-eff", "yarn", "yarn-notemp"}

// MethodScaling returns the scaling of method for evaluation at length n of
// a model trained on L, f being dynamic NTK's factor. At n ≤ L every
// method is the identity (no scaling). It panics on an unknown method.
func MethodScaling(method string, n, L int, f float64) posenc.Scaling {
	s := float64(n) / float64(L)
	if n <= L {
		return posenc.Scaling{}
	}
	switch method {
	case "pi":
		return posenc.LinearScaling(s)
	case "ntk":
		return posenc.NTKScaling(s)
	case "dynamic":
		return posenc.DynamicNTKScaling(f, L, 0)
	case "ntk-eff":
		return posenc.NTKScaling(f*s - (f - 1))
	case "yarn":
		return posenc.YaRNScaling(s, L)
	case "yarn-notemp":
		sc := posenc.YaRNScaling(s, L)
		sc.AttentionFactor = 1
		return sc
	}
	panic("lab: unknown scaling method " + method)
}
