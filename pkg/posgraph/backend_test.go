package posgraph

import (
	"os"
	"strings"
	"testing"
)

// xlaCPUPluginInstalled reports whether this build links XLA and finds its
// CPU plugin, in which case ChooseBackend prefers "xla:cpu".
func xlaCPUPluginInstalled() bool {
	if xlaPlugins == nil {
		return false
	}
	for name := range xlaPlugins() {
		if name == "cpu" || strings.HasPrefix(name, "cpu_") {
			return true
		}
	}
	return false
}

func TestChooseBackendHonoursEnv(t *testing.T) {
	for _, v := range []string{"go", "xla:cpu", "xla:cuda"} {
		t.Setenv(BackendEnvVar, v)
		config, reason := ChooseBackend()
		if config != v || !strings.Contains(reason, BackendEnvVar) {
			t.Errorf("%s=%s: ChooseBackend() = %q, %q; want %q and a reason naming %s", BackendEnvVar, v, config, reason, v, BackendEnvVar)
		}
	}
}

func TestChooseBackendDefault(t *testing.T) {
	t.Setenv(BackendEnvVar, "") // restored after the test
	if err := os.Unsetenv(BackendEnvVar); err != nil {
		t.Fatal(err)
	}
	if xlaCPUPluginInstalled() {
		t.Skip("an XLA CPU plugin is installed here; the default is then xla:cpu")
	}
	config, reason := ChooseBackend()
	if config != "go" || reason == "" {
		t.Errorf("ChooseBackend() = %q, %q; want \"go\" and a reason", config, reason)
	}
}

func TestNewBackend(t *testing.T) {
	t.Setenv(BackendEnvVar, "go")
	b, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	if b.Name() == "" {
		t.Error("backend has no name")
	}
	b.Finalize()

	// A backend that is not compiled in is an error, not a panic.
	t.Setenv(BackendEnvVar, "nosuch")
	if b, err := NewBackend(); err == nil || b != nil || !strings.HasPrefix(err.Error(), `posgraph: backend "nosuch" failed`) {
		t.Errorf("GOMLX_BACKEND=nosuch: NewBackend() = %v, %v; want a posgraph error", b, err)
	}

	// XLA without its plugin: an error saying how to get one, never a download.
	if xlaCPUPluginInstalled() {
		return
	}
	t.Setenv(BackendEnvVar, "xla:cpu")
	t.Setenv(ImageEnvVar, "")
	_, err = NewBackend()
	if err == nil || !strings.Contains(err.Error(), "cannot start") || !strings.Contains(err.Error(), BackendEnvVar+"=go") {
		t.Errorf("GOMLX_BACKEND=xla:cpu without a plugin: err = %v; want why and what to do", err)
	}
}

func TestBackendIsShared(t *testing.T) {
	b := Backend()
	if b == nil || Backend() != b {
		t.Errorf("Backend() = %v, then %v; want one shared backend", b, Backend())
	}
}

func TestBackendSummary(t *testing.T) {
	got := BackendSummary()
	config, reason := ChooseBackend()
	if want := "GoMLX backend: " + config + " (" + reason + ")"; got != want {
		t.Errorf("BackendSummary() = %q; want %q", got, want)
	}
}

// BackendSummary describes the shared backend as it was created, not what
// GOMLX_BACKEND asks for after that.
func TestBackendSummaryAfterEnvChange(t *testing.T) {
	b := Backend()
	want := BackendSummary()
	t.Setenv(BackendEnvVar, "nosuch")
	if got := BackendSummary(); got != want {
		t.Errorf("%s=nosuch after Backend(): BackendSummary() = %q; want %q, the backend that runs", BackendEnvVar, got, want)
	}
	if Backend() != b {
		t.Errorf("%s=nosuch after Backend(): Backend() changed; want the shared one", BackendEnvVar)
	}
}

// The pure-Go backend NewBackend makes has no worker limit (the default
// limit deadlocks a training step; see unlimitGoWorkers), unless the
// configuration sets one.
func TestNewBackendGoParallelism(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"go", "parallelism=-1"},
		{"go:ops_sequential", "parallelism=-1"},
		{"go:parallelism=3", "parallelism=3"},
	} {
		t.Setenv(BackendEnvVar, c.env)
		b, err := NewBackend()
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Description(); !strings.Contains(got, c.want) {
			t.Errorf("%s=%s: Description() = %q; want it to contain %q", BackendEnvVar, c.env, got, c.want)
		}
		b.Finalize()
	}
}

// GoBackend is the pure-Go backend whatever GOMLX_BACKEND says, shared, with
// the worker limit lifted.
func TestGoBackend(t *testing.T) {
	t.Setenv(BackendEnvVar, "xla:cuda")
	b := GoBackend()
	if b != GoBackend() {
		t.Error("GoBackend() returns a new backend each time; want one shared")
	}
	if got := b.Description(); !strings.Contains(got, "parallelism=-1") {
		t.Errorf("GoBackend().Description() = %q; want the pure-Go backend with parallelism=-1", got)
	}
}
