// Package smollm runs SmolLM2-135M-Instruct (HuggingFaceTB, Apache-2.0), a
// trained Llama-architecture model, in GoMLX on the course's own RoPE
// (pkg/posgraph): every posenc scaling, layout and position-id scheme then
// applies to a model someone else trained.
//
// The weights come from `make model` (find.go); model.go is the network,
// written to read like lesson 4.
package smollm
