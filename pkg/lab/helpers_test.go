package lab

import (
	"testing"

	"github.com/gomlx/compute"

	"github.com/posenc/course/pkg/posgraph"
)

// testBackend returns the backend the course's helper picks.
func testBackend(t testing.TB) compute.Backend {
	b, err := posgraph.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Finalize)
	return b
}
