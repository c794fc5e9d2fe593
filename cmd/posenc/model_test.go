package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/posenc/course/internal/modeltest"
	"github.com/posenc/course/pkg/smollm"
)

func TestModelUsageErrors(t *testing.T) {
	dir := t.TempDir()
	ids := filepath.Join(dir, "ids.txt")
	if err := os.WriteFile(ids, []byte("1 2 3"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("1 x 3"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"model"}, "missing subcommand"},
		{[]string{"model", "nope"}, `unknown subcommand "nope"`},
		{[]string{"model", "score"}, "missing FILE"},
		{[]string{"model", "score", ids}, "-tokens is required"},
		{[]string{"model", "score", ids, "-tokens", "1"}, "-tokens must be at least 2"},
		{[]string{"model", "score", filepath.Join(dir, "none"), "-tokens", "8"}, "FILE"},
		{[]string{"model", "score", ids, "-tokens", "8", "-scaling", "yarn"}, "want KIND:FACTOR"},
		{[]string{"model", "score", ids, "-tokens", "8", "-scaling", "warp:2"}, "kind must be one of"},
		{[]string{"model", "score", ids, "-tokens", "8", "-scaling", "yarn:0.5"}, "-scaling"},
		{[]string{"model", "score", ids, "-tokens", "8", "-scaling", "none:2"}, "none takes no factor"},
		{[]string{"model", "score", ids, "-tokens", "8", "-range", "0"}, "-range must be positive"},
		{[]string{"model", "score", ids, "-tokens", "8", "-frobnicate"}, "frobnicate"},
		{[]string{"model", "generate"}, "missing TEXT"},
		{[]string{"model", "generate", "hi", "-max-tokens", "0"}, "-max-tokens must be positive"},
		{[]string{"model", "generate", "1 x", "-ids"}, `"x" is not a token id`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) { checkUsageError(t, c.args, c.want) })
	}
	// Bad token ids in a file are a usage error too, once the model is there.
	if _, err := smollm.Find(); err == nil {
		checkUsageError(t, []string{"model", "score", bad, "-ids", "-tokens", "3"}, `"x" is not a token id`)
		checkUsageError(t, []string{"model", "score", ids, "-ids", "-tokens", "8"}, "has only 3 tokens")
	}
}

func TestModelHelp(t *testing.T) {
	out := mustRun(t, "model", "score", "-help")
	if !strings.Contains(out, "-tokens") || !strings.Contains(out, `"nll"`) {
		t.Errorf("model score -help lacks -tokens or the JSON key nll:\n%s", out)
	}
	if out := mustRun(t, "help", "model"); !strings.Contains(out, "model score") {
		t.Errorf("help model lacks model score:\n%s", out)
	}
}

// TestModelScoreJSON scores 8 committed token ids (the golden's first) and
// checks the JSON against transformers' NLL of the same predictions.
func TestModelScoreJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs SmolLM2-135M (-short)")
	}
	_, err := smollm.Find()
	modeltest.Require(t, err)
	b, err := os.ReadFile("../../pkg/smollm/testdata/logits.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		IDs []int     `json:"ids"`
		NLL []float64 `json:"nll"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var text []string
	for _, id := range g.IDs[:n] {
		text = append(text, strconv.Itoa(id))
	}
	file := filepath.Join(t.TempDir(), "ids.txt")
	if err := os.WriteFile(file, []byte(strings.Join(text, " ")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "model", "score", file, "-ids", "-tokens", strconv.Itoa(n), "-range", "4", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		NLL    float64 `json:"nll"`
		Tokens int     `json:"tokens"`
		Ranges []struct {
			From, To int
			NLL      float64
		} `json:"ranges"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := 0.0
	for _, v := range g.NLL[:n-1] {
		want += v / (n - 1)
	}
	if d := got.NLL - want; got.Tokens != n || len(got.Ranges) != 2 || d > 1e-3 || d < -1e-3 {
		t.Errorf("got %s; want nll %.5f (transformers), tokens %d, 2 ranges", out, want, n)
	}
	if !strings.Contains(errOut, "8/8 tokens") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
}
