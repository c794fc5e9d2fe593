package main

import (
	"io"
	"strconv"

	"github.com/posenc/course/pkg/posenc"
)

// t5Params maps posenc's T5 parameter names to flags.
var t5Params = map[string]string{
	"num_buckets": "buckets", "max_distance": "max-distance", "rel": "rel",
	"q_len": "len", "k_len": "len", "q_len×k_len": "len",
}

// t5Flags are the bucket configuration flags shared by t5-bucket and plot.
type t5Flags struct {
	buckets, maxDistance *int
	bidirectional        *bool
}

func defineT5Flags(f *flags) *t5Flags {
	return &t5Flags{
		buckets: f.Int("buckets", 32, "number of buckets `N` (relative_attention_num_buckets)"),
		maxDistance: f.Int("max-distance", 128,
			"distance `M` where the logarithmic buckets end;\nevery distance from it on shares the last bucket"),
		bidirectional: f.Bool("bidirectional", true,
			"encoder buckets (keys after the query get their own half);\n-bidirectional=false for a causal decoder"),
	}
}

func (t *t5Flags) config() (posenc.T5Buckets, error) {
	cfg := posenc.T5Buckets{NumBuckets: *t.buckets, MaxDistance: *t.maxDistance, Bidirectional: *t.bidirectional}
	if err := cfg.Validate(); err != nil {
		return cfg, paramError(err, t5Params)
	}
	return cfg, nil
}

func defineT5Bucket(f *flags) func(io.Writer) error {
	f.synopsis = "-rel R [-buckets 32] [-max-distance 128] [-bidirectional=true|false] [-json]"
	rel := f.Int("rel", 0, "relative position `R` = key − query (negative: the key is before the query)")
	f.Require("rel")
	tf := defineT5Flags(f)
	asJSON := f.JSON()
	f.notes = []string{
		"Buckets follow Hugging Face's T5Attention._relative_position_bucket: one bucket per distance\n" +
			"below half of a direction's buckets, then logarithmically wider ones up to -max-distance.\n" +
			"JSON: {\"bucket\": b}.",
	}
	f.examples = []string{
		"posenc t5-bucket -rel -20",
		"posenc t5-bucket -rel 300 -bidirectional=false -json",
	}
	return func(w io.Writer) error {
		cfg, err := tf.config()
		if err != nil {
			return err
		}
		b, err := cfg.Bucket(*rel)
		if err != nil {
			return paramError(err, t5Params)
		}
		if *asJSON {
			_, err := io.WriteString(w, `{"bucket": `+strconv.Itoa(b)+"}\n")
			return err
		}
		return writeTable(w, []string{"rel", "bucket"}, 1, func(_, c int) string {
			if c == 0 {
				return strconv.Itoa(*rel)
			}
			return strconv.Itoa(b)
		})
	}
}
