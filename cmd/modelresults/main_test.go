package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBadUsageExits2 checks that a bad flag or argument exits 2 and names
// it, before any model is loaded.
func TestBadUsageExits2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "nope"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--only", "nll"}, `--only "nll"`},
	} {
		var out, errOut bytes.Buffer
		if code := run(c.args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}

// TestSummaryOnlyOfAnEmptyFolder checks that --only summary writes empty
// tables from a folder with no cells, without the model.
func TestSummaryOnlyOfAnEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run([]string{"--only", "summary", "--out", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}
