package posgraph

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend, always available
)

// BackendEnvVar is the environment variable that chooses the GoMLX backend:
// "go", "xla:cpu" or "xla:cuda".
const BackendEnvVar = compute.ConfigEnvVar // "GOMLX_BACKEND"

// xlaPlugins, set by backend_xla.go when XLA is linked in (cgo builds without
// the noxla tag), lists the installed PJRT plugins without downloading any.
var xlaPlugins func() map[string]string

// findXLAPlugin returns the path of an installed PJRT plugin called name,
// as go-xla matches names: the plugin itself or a versioned "name_…" ("cpu"
// finds "cpu_v2"); "" finds any plugin, as plain "xla" takes the first one.
// It finds none when XLA is not linked in.
func findXLAPlugin(name string) (path string, ok bool) {
	if xlaPlugins == nil {
		return "", false
	}
	for found, path := range xlaPlugins() {
		if name == "" || found == name || strings.HasPrefix(found, name+"_") {
			return path, true
		}
	}
	return "", false
}

// ChooseBackend returns the backend configuration NewBackend uses, and why:
// $GOMLX_BACKEND when set; else "xla:cpu" when XLA is linked in and its CPU
// PJRT plugin is already installed; else "go", the pure-Go backend.
func ChooseBackend() (config, reason string) {
	if v := os.Getenv(BackendEnvVar); v != "" {
		return v, BackendEnvVar + " is set"
	}
	if xlaPlugins == nil {
		return "go", "this build has no XLA (cgo off or built with -tags noxla)"
	}
	if path, ok := findXLAPlugin("cpu"); ok {
		return "xla:cpu", "the XLA CPU plugin is installed at " + path
	}
	return "go", "no XLA PJRT plugin is installed (the pure-Go backend needs none)"
}

// NewBackend creates the backend ChooseBackend picks. It prints nothing
// (BackendSummary says which backend runs and why, for a program or a
// notebook to show once) and never downloads anything: when GOMLX_BACKEND
// asks for XLA and it cannot start, the error says in one line why (no XLA
// in this build, no GPU visible, no plugin installed, or the plugin's own
// error) and what to do, in the course's Docker image or outside it. A
// pure-Go backend gets unlimited parallelism unless the configuration sets
// it ("go:parallelism=4"): with the default limit it can deadlock (see
// unlimitGoWorkers).
func NewBackend() (compute.Backend, error) {
	c, err := newChosenBackend()
	return c.backend, err
}

// chosenBackend is a backend NewBackend created, with the configuration
// and the reason ChooseBackend gave for it.
type chosenBackend struct {
	backend        compute.Backend
	config, reason string
}

// newChosenBackend is NewBackend, also returning what ChooseBackend said
// (the backend is nil when err is not).
func newChosenBackend() (chosenBackend, error) {
	config, reason := ChooseBackend()
	c := chosenBackend{config: config, reason: reason}
	b, err := newBackend(config)
	if err != nil {
		if config == "xla" || strings.HasPrefix(config, "xla:") || strings.HasPrefix(config, "xla,") {
			return c, xlaBackendError(config, err)
		}
		return c, fmt.Errorf("posgraph: backend %q failed: %w", config, err)
	}
	c.backend = b
	return c, nil
}

// newBackend creates the backend config names, with the pure-Go backend's
// worker limit lifted (see unlimitGoWorkers). It returns a nil backend with
// the error.
func newBackend(config string) (compute.Backend, error) {
	b, err := newWithConfig(config)
	if err == nil {
		err = unlimitGoWorkers(b, config)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// BackendSummary returns one line saying which backend Backend uses and
// why, e.g. "GoMLX backend: go (no XLA PJRT plugin is installed …)": the
// configuration and reason the shared backend was created from, even if
// GOMLX_BACKEND has changed since. It creates the shared backend if it does
// not exist yet, and reports its error instead when that fails.
func BackendSummary() string {
	c, err := defaultBackend()
	if err != nil {
		return "GoMLX backend: none: " + err.Error()
	}
	return "GoMLX backend: " + c.config + " (" + c.reason + ")"
}

// unlimitGoWorkers gives a pure-Go backend unlimited parallelism, as the
// option "go:parallelism=-1" would, unless config sets parallelism itself.
//
// With its default limit (2 × GOMAXPROCS workers) the Go backend of
// github.com/gomlx/compute v0.1.2 can deadlock: when it runs a graph's
// operations in parallel, each operation holds a worker while it runs, and a
// large matrix multiplication (workerspool.Pool.Saturate) or a long
// elementwise op (Pool.WaitToStart) then waits for free workers; when every
// worker is held by such an operation, none ever frees one. A training step
// has several matrix multiplications ready at once, and on 2 cores a short
// training hung in about 1 run of 4. With no limit (-1) no goroutine ever
// waits for a worker: WaitToStart starts a goroutine at once, and Saturate
// starts at most GOMAXPROCS of its own and waits only for those.
//
// The option string would also do it, but the backend then prints "Go
// backend: parallelism set to -1" on stdout, into every notebook cell and
// every program's output; the pool has no other API (its type is internal),
// so this sets it through reflection, checked by the backend's own
// Description.
func unlimitGoWorkers(b compute.Backend, config string) error {
	name, options, _ := strings.Cut(config, ":")
	if name != "go" || strings.Contains(options, "parallelism=") {
		return nil
	}
	v := reflect.ValueOf(b)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if pool := v.Elem().FieldByName("Workers"); pool.IsValid() {
			if set := pool.MethodByName("SetMaxParallelism"); set.IsValid() {
				set.Call([]reflect.Value{reflect.ValueOf(-1)})
			}
		}
	}
	if !strings.Contains(b.Description(), "parallelism=-1") {
		return fmt.Errorf("could not lift the Go backend's worker limit (%s); set %s=go:parallelism=-1",
			b.Description(), BackendEnvVar)
	}
	return nil
}

// newWithConfig is compute.NewWithConfig, which panics, rather than
// returning an error, when config names a backend that is not compiled in
// (GOMLX_BACKEND=nosuch, or xla in a noxla build): that panic becomes the
// error.
func newWithConfig(config string) (b compute.Backend, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("%v", r)
		}
	}()
	return compute.NewWithConfig(config)
}

// defaultBackend creates, on its first call, the backend that Backend
// shares and BackendSummary describes.
var defaultBackend = sync.OnceValues(newChosenBackend)

// goBackend creates, on its first call, the backend that GoBackend shares.
var goBackend = sync.OnceValues(func() (compute.Backend, error) { return newBackend("go") })

// GoBackend returns a pure-Go backend shared by the whole program, whatever
// GOMLX_BACKEND says, with the worker limit lifted as NewBackend lifts it.
// It is for results that a text states: what a model learns depends on the
// backend's arithmetic (XLA orders its sums differently, even from one run
// to the next on several threads), and a lesson that quotes trained
// accuracies quotes what the pure-Go backend computes. It panics if the
// backend cannot be created.
func GoBackend() compute.Backend {
	b, err := goBackend()
	if err != nil {
		panic(fmt.Errorf("posgraph: the pure-Go backend failed: %w", err))
	}
	return b
}

// Backend returns a backend shared by the whole program, created by
// NewBackend on first use. It panics if that fails: notebooks and examples
// call it, and there is nothing they could do with the error but stop.
func Backend() compute.Backend {
	c, err := defaultBackend()
	if err != nil {
		panic(err)
	}
	return c.backend
}
