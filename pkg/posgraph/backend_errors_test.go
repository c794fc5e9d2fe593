package posgraph

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestXLABackendError checks the one-line explanation of every way an XLA
// backend can fail to start, in and out of the course's Docker images.
func TestXLABackendError(t *testing.T) {
	cpuOnly := func() map[string]string {
		return map[string]string{"cpu_v0.114.0": "/x/pjrt_c_api_cpu_v0.114.0_plugin.so"}
	}
	both := func() map[string]string {
		return map[string]string{"cpu": "/x/pjrt_c_api_cpu_plugin.so", "cuda": "/x/nvidia/pjrt_c_api_cuda_plugin.so"}
	}
	none := func() map[string]string { return map[string]string{} }
	existing := filepath.Join(t.TempDir(), "plugin.so")
	tests := []struct {
		name    string
		config  string
		plugins func() map[string]string // nil: no XLA linked in
		gpu     bool
		image   string
		cause   string
		want    []string // substrings of the message
		notWant []string
	}{
		{name: "no XLA in this build", config: "xla:cpu", plugins: nil,
			want: []string{`backend "xla:cpu" cannot start: this build has no XLA`, "CGO_ENABLED=1", "GOMLX_BACKEND=go"}},
		{name: "cuda without a GPU, outside Docker", config: "xla:cuda", plugins: both, gpu: false,
			want: []string{"no NVIDIA GPU is visible", "compute capability 7.5+", "GOMLX_BACKEND=xla:cpu or GOMLX_BACKEND=go"}},
		{name: "cuda without a GPU, cuda image", config: "xla:cuda", plugins: both, gpu: false, image: "cuda",
			want: []string{"no NVIDIA GPU is visible", "--gpus all", "NVIDIA Container Toolkit"}, notWant: []string{"make"}},
		{name: "cuda without a GPU, cpu image", config: "xla:cuda", plugins: cpuOnly, gpu: false, image: "cpu",
			want: []string{"no NVIDIA GPU is visible", "this is the CPU image: use the cuda one"}, notWant: []string{"make"}},
		{name: "cuda plugin missing, outside Docker", config: "xla:cuda", plugins: cpuOnly, gpu: true,
			want: []string{"no XLA PJRT cuda plugin is installed", "XLA_PLUGIN=cuda scripts/install.sh --xla", "GOMLX_BACKEND=xla:cpu"}},
		{name: "cuda plugin missing, cpu image", config: "xla:cuda", plugins: cpuOnly, gpu: true, image: "cpu",
			want: []string{"no XLA PJRT cuda plugin is installed", "use the cuda one"}, notWant: []string{"make", "install.sh"}},
		{name: "cpu plugin missing, outside Docker", config: "xla:cpu", plugins: none,
			want: []string{"no XLA PJRT cpu plugin is installed", "make xla", "GOMLX_BACKEND=go (the pure-Go backend)"}, notWant: []string{"xla:cpu or"}},
		{name: "cpu plugin missing, cpu image", config: "xla:cpu", plugins: none, image: "cpu",
			want: []string{"no XLA PJRT cpu plugin is installed", "WITH_XLA=0", "rebuild it"}, notWant: []string{"make xla"}},
		{name: "cpu plugin fails to load", config: "xla:cpu", plugins: cpuOnly, cause: "failed to dynamically load\n  GLIBC_2.38 not found",
			want: []string{"the XLA PJRT cpu plugin failed to load: failed to dynamically load GLIBC_2.38 not found", "ldd"}},
		{name: "cuda plugin fails to load, cuda image", config: "xla:cuda,preallocate=false", plugins: both, gpu: true, image: "cuda", cause: "CUDA_ERROR_NO_DEVICE",
			want: []string{`backend "xla:cuda,preallocate=false"`, "the XLA PJRT cuda plugin failed to load: CUDA_ERROR_NO_DEVICE", "rebuild the image"}},
		{name: "a plugin path that does not exist", config: "xla:/nowhere/pjrt_c_api_cpu_plugin.so", plugins: none,
			want: []string{"there is no plugin at /nowhere/pjrt_c_api_cpu_plugin.so", "give the path of an installed plugin"}},
		{name: "a plugin path that fails", config: "xla:" + existing, plugins: none, cause: "bad ELF",
			want: []string{"the XLA PJRT plugin failed to load: bad ELF"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			oldPlugins, oldGPU := xlaPlugins, gpuVisible
			xlaPlugins, gpuVisible = tc.plugins, func() bool { return tc.gpu }
			t.Cleanup(func() { xlaPlugins, gpuVisible = oldPlugins, oldGPU })
			t.Setenv(ImageEnvVar, tc.image)
			if tc.name == "a plugin path that fails" {
				if err := os.WriteFile(existing, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cause := tc.cause
			if cause == "" {
				cause = "go-xla's error"
			}
			got := xlaBackendError(tc.config, errors.New(cause)).Error()
			if strings.Contains(got, "\n") {
				t.Errorf("error %q: want one line", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("error %q: want it to contain %q", got, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("error %q: want it not to contain %q", got, w)
				}
			}
		})
	}
}

func TestXLAPluginName(t *testing.T) {
	for config, want := range map[string]string{
		"xla": "", "xla:cpu": "cpu", "xla:cuda,preallocate=false": "cuda", "xla:/a/b.so": "/a/b.so",
	} {
		if got := xlaPluginName(config); got != want {
			t.Errorf("xlaPluginName(%q) = %q; want %q", config, got, want)
		}
	}
}
