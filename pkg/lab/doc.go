// Package lab is lesson 8's experiment: small decoder-only Transformers,
// identical but for how they know positions, trained on the same text and
// compared on lengths past the one they were trained on.
//
// The files read in the order of the lesson:
//
//	vocab.go     characters and the recall task's key tokens
//	data.go      the corpus, training batches, evaluation windows that end
//	             on the same targets at every length
//	recall.go    the recall task: key–value pairs in text, each key asked again
//	             once, at a distance drawn evenly over the training length
//	model.go     the model, and where each encoding enters it
//	optimizer.go the learning-rate schedule and Adam with a clipped gradient norm
//	train.go     training, with a learning curve
//	eval.go      loss by position and recall on probes
//	scaling.go   RoPE's scaling methods at evaluation time, and their controls
//	config.go    what a run trains and evaluates (DefaultConfig, LayersConfig,
//	             the controls for the gaps at L)
//	run.go       RunLab: every model, every seed
//	cells.go     each finished model and seed on disk, for resuming a run
//	results.go   results.json, its numbers over seeds, per-probe outcomes
//	stats.go     Wilson intervals and the spread over seeds
//	paired.go    exact McNemar, and bootstraps over seeds and probes
//
// Reporting (figures, tables, the progress bar, provenance) lives in
// package report beside it; cmd/lab runs it.
package lab
