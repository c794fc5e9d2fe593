package posgraph

import (
	"os"
	"strings"
	"testing"
)

// xlaCPUPluginInstalled reports whether this build links XLA and finds its
// CPU plugin, in which case ChooseBackend prefers "xla:cpu".
func xlaCPUPluginInstalled() bool {
	_, ok := findXLAPlugin("cpu")
	return ok
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

// findXLAPlugin matches a plugin name as go-xla does, for ChooseBackend,
// the backend errors and the tests alike.
func TestFindXLAPlugin(t *testing.T) {
	old := xlaPlugins
	t.Cleanup(func() { xlaPlugins = old })
	xlaPlugins = nil
	if path, ok := findXLAPlugin("cpu"); ok {
		t.Errorf("no XLA: findXLAPlugin(\"cpu\") = %q, true; want none", path)
	}
	xlaPlugins = func() map[string]string {
		return map[string]string{"cpu_v0.114.0": "/x/cpu.so", "cudax": "/x/cudax.so"}
	}
	for _, c := range []struct {
		name, path string
		ok         bool
	}{
		{"cpu", "/x/cpu.so", true}, // versioned
		{"cpu_v0.114.0", "/x/cpu.so", true},
		{"cuda", "", false}, // "cudax" is another plugin
		{"cp", "", false},
	} {
		if path, ok := findXLAPlugin(c.name); path != c.path || ok != c.ok {
			t.Errorf("findXLAPlugin(%q) = %q, %t; want %q, %t", c.name, path, ok, c.path, c.ok)
		}
	}
	if _, ok := findXLAPlugin(""); !ok {
		t.Error(`findXLAPlugin("") found nothing; want any plugin`)
	}

	t.Setenv(BackendEnvVar, "") // restored after the test
	if err := os.Unsetenv(BackendEnvVar); err != nil {
		t.Fatal(err)
	}
	if config, reason := ChooseBackend(); config != "xla:cpu" || !strings.Contains(reason, "/x/cpu.so") {
		t.Errorf("with a versioned CPU plugin, ChooseBackend() = %q, %q; want \"xla:cpu\" and its path", config, reason)
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
