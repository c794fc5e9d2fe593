package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

func TestT5BucketJSON(t *testing.T) {
	// Values worked by hand from Hugging Face's
	// T5Attention._relative_position_bucket (modeling_t5.py): with 32
	// buckets bidirectional, 16 per direction, 8 exact, then
	// 8 + ⌊ln(n/8)/ln(128/8)·8⌋.
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"--rel", "0"}, 0},
		{[]string{"--rel", "-3"}, 3},
		{[]string{"--rel", "3"}, 19},
		{[]string{"--rel", "-20"}, 10},
		{[]string{"--rel", "20"}, 26},
		{[]string{"--rel", "-200"}, 15},
		{[]string{"--rel", "200"}, 31},
		// Decoder: 32 buckets one way, 16 exact; future keys share bucket 0.
		{[]string{"--rel", "300", "--bidirectional=false"}, 0},
		{[]string{"--rel", "-20", "--bidirectional=false"}, 17},
		{[]string{"--rel", "-300", "--bidirectional=false"}, 31},
		// 8 buckets: 4 per direction, 2 exact, then 2 + ⌊ln(5/2)/ln(16/2)·2⌋.
		{[]string{"--rel", "-5", "--buckets", "8", "--max-distance", "16"}, 2},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var got struct{ Bucket *int }
			decodeJSONPlain(t, mustRun(t, append([]string{"t5-bucket", "--json"}, tt.args...)...), &got)
			if got.Bucket == nil {
				t.Fatalf("no bucket in the output")
			}
			if *got.Bucket != tt.want {
				t.Errorf("bucket = %d; want %d", *got.Bucket, tt.want)
			}
		})
	}
}

func TestT5BucketMatchesLibrary(t *testing.T) {
	for _, bidi := range []bool{true, false} {
		cfg := posenc.NewT5Buckets()
		cfg.Bidirectional = bidi
		for rel := -300; rel <= 300; rel += 7 {
			want, err := cfg.Bucket(rel)
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Bucket int }
			decodeJSONPlain(t, mustRun(t, "t5-bucket", "--json", "--rel", strconv.Itoa(rel),
				"--bidirectional="+strconv.FormatBool(bidi)), &got)
			if got.Bucket != want {
				t.Errorf("bidirectional=%v rel %d: bucket %d; want %d", bidi, rel, got.Bucket, want)
			}
		}
	}
}

func TestT5BucketHuman(t *testing.T) {
	if out, want := mustRun(t, "t5-bucket", "--rel", "-20"), "rel  bucket\n-20      10\n"; out != want {
		t.Errorf("output %q; want %q", out, want)
	}
}
