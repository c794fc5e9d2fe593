package posgraph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ImageEnvVar names the course's Docker image a program runs in: "cpu" or
// "cuda" (docker/Dockerfile sets it), empty elsewhere. It only changes what
// the backend errors advise: the image has no make and no course checkout
// to install plugins from, and its plugins come with the image.
const ImageEnvVar = "POSENC_IMAGE_TARGET"

// gpuVisible reports whether an NVIDIA GPU's device files are visible, as
// go-xla decides before it tries a CUDA plugin. A variable for tests.
var gpuVisible = func() bool {
	m, _ := filepath.Glob("/dev/nvidia[0-9]*")
	return len(m) > 0
}

// xlaPluginName returns the plugin that an XLA backend configuration asks
// for: "cpu" for "xla:cpu", "cuda" for "xla:cuda,preallocate=false", a path
// for "xla:/path/plugin.so", "" for plain "xla" (the first one found).
func xlaPluginName(config string) string {
	name, _, _ := strings.Cut(config, ",")
	name = strings.TrimPrefix(name, "xla")
	return strings.TrimPrefix(name, ":")
}

// isCUDAPlugin reports whether a plugin name or path is NVIDIA's, as
// go-xla's pjrt.IsCUDAName does.
func isCUDAPlugin(name string) bool {
	u := strings.ToUpper(name)
	return strings.Contains(u, "CUDA") || strings.Contains(u, "NVIDIA")
}

// xlaPluginInstalled reports whether go-xla finds the named plugin (a name
// matches itself or a versioned "name_v…"; a path must exist).
func xlaPluginInstalled(name string) bool {
	if filepath.IsAbs(name) {
		_, err := os.Stat(name)
		return err == nil
	}
	_, ok := findXLAPlugin(name)
	return ok
}

// oneLine joins the lines of an error message, so that the error it ends in
// stays on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// xlaBackendError explains, in one line, why the XLA backend config could
// not start (cause is go-xla's error): XLA not linked in, no GPU visible,
// the plugin missing, or the plugin failing to load with its own error; and
// what to do where the program runs (in the course's Docker image or in a
// checkout of the course), then which backend to use instead.
func xlaBackendError(config string, cause error) error {
	plugin := xlaPluginName(config)
	cuda := isCUDAPlugin(plugin)
	image := os.Getenv(ImageEnvVar)
	label := "XLA PJRT plugin"
	if plugin != "" && !filepath.IsAbs(plugin) {
		label = "XLA PJRT " + plugin + " plugin"
	}
	instead := BackendEnvVar + "=go (the pure-Go backend)"
	if cuda {
		instead = BackendEnvVar + "=xla:cpu or " + BackendEnvVar + "=go"
	}

	var why, todo string
	switch {
	case xlaPlugins == nil:
		why = "this build has no XLA (cgo off, or built with -tags noxla)"
		todo = "build with cgo (CGO_ENABLED=1) and a C compiler"
	case cuda && !gpuVisible():
		why = "no NVIDIA GPU is visible (no /dev/nvidia0)"
		switch image {
		case "cuda":
			todo = "start the container with the GPU (docker compose -f docker/compose.yaml --profile gpu up course-gpu, or docker run --gpus all) on a host with the NVIDIA driver 580+ and the NVIDIA Container Toolkit"
		case "cpu":
			todo = "this is the CPU image: use the cuda one with the GPU (docker compose -f docker/compose.yaml --profile gpu up course-gpu)"
		default:
			todo = "run on a machine with an NVIDIA GPU (compute capability 7.5+) and its driver (580+)"
		}
	case !xlaPluginInstalled(plugin):
		why = "no " + label + " is installed"
		if filepath.IsAbs(plugin) {
			why = "there is no plugin at " + plugin
		}
		switch {
		case filepath.IsAbs(plugin):
			todo = "give the path of an installed plugin"
		case image == "cpu" && cuda:
			todo = "this is the CPU image: use the cuda one (docker compose -f docker/compose.yaml --profile gpu up course-gpu)"
		case image != "":
			todo = "this image was built without it (build argument WITH_XLA=0, or a broken build): rebuild it"
		case cuda:
			todo = "install it from the course folder with XLA_PLUGIN=cuda scripts/install.sh --xla (or go run ./cmd/xla-install -plugin cuda)"
		default:
			todo = "install it from the course folder with make xla (or go run ./cmd/xla-install), which downloads it"
		}
	default:
		why = "the " + label + " failed to load: " + oneLine(cause.Error())
		todo = "check that its libraries resolve (ldd), or reinstall it"
		if image != "" {
			todo = "check that its libraries resolve (ldd), or rebuild the image"
		}
	}
	return fmt.Errorf("posgraph: backend %q cannot start: %s; %s; or set %s", config, why, todo, instead)
}
