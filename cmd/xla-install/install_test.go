package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func sha256Of(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// tarGz returns a .tar.gz archive holding the given files.
func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipOf returns a zip archive (a wheel) holding the given files.
func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// serve starts a server answering each path with its body (404 otherwise)
// and counts the requests.
func serve(t *testing.T, bodies map[string][]byte, contentType map[string]string) (*httptest.Server, *int) {
	t.Helper()
	n := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*n++
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if ct := contentType[r.URL.Path]; ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

func TestEmbeddedSumsListThePinnedVersion(t *testing.T) {
	sums, err := parseSums(cpuSumsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "arm64"}} {
		key := CPUVersion + "/" + cpuAsset(p[0], p[1])
		if _, ok := sums[key]; !ok {
			t.Errorf("sha256.txt does not list %s (recorded or %q)", key, unrecorded)
		}
	}
}

func TestParseSumsErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"v1 a.tar.gz", `want "version asset sha256"`},
		{"v1 a.tar.gz abc", "neither 64 hexadecimal digits"},
		{"v1 a.tar.gz unrecorded\nv1 a.tar.gz unrecorded", "listed twice"},
	}
	for _, tc := range tests {
		if _, err := parseSums(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseSums(%q) = %v; want an error containing %q", tc.text, err, tc.want)
		}
	}
	got, err := parseSums("# comment\n\nv1 a.tar.gz " + strings.Repeat("AB", 32) + "\nv1 b.tar.gz unrecorded\n")
	if err != nil {
		t.Fatal(err)
	}
	if got["v1/a.tar.gz"] != strings.Repeat("ab", 32) || got["v1/b.tar.gz"] != "" || len(got) != 2 {
		t.Errorf("parseSums = %v; want a's sum in lower case and b unrecorded", got)
	}
}

func TestCPUAssetURLIsDirect(t *testing.T) {
	got := cpuAssetURL("v0.114.0", cpuAsset("linux", "arm64"))
	want := "https://github.com/gomlx/pjrt-cpu-binaries/releases/download/v0.114.0/pjrt_cpu_linux_arm64.tar.gz"
	if got != want {
		t.Errorf("cpuAssetURL = %q; want %q", got, want)
	}
}

// cpuFixture serves a fake CPU release and records its sum as given.
func cpuFixture(t *testing.T, recorded string) (o options, archiveSum string, requests *int) {
	t.Helper()
	o = options{plugin: "cpu", version: "v9.9.9", dir: t.TempDir(), goos: "linux", goarch: "amd64"}
	asset := cpuAsset(o.goos, o.goarch)
	archive := tarGz(t, map[string]string{"pjrt_c_api_cpu_v9.9.9_plugin.so": "plugin bytes"})
	srv, n := serve(t, map[string][]byte{"/v9.9.9/" + asset: archive}, nil)
	oldBase, oldSums := cpuReleaseBase, cpuSumsFile
	cpuReleaseBase, cpuSumsFile = srv.URL, fmt.Sprintf("v9.9.9 %s %s\n", asset, recorded)
	t.Cleanup(func() { cpuReleaseBase, cpuSumsFile = oldBase, oldSums })
	return o, sha256Of(archive), n
}

func TestInstallCPURecordedSum(t *testing.T) {
	o, sum, _ := cpuFixture(t, "")
	cpuSumsFile = fmt.Sprintf("v9.9.9 %s %s\n", cpuAsset("linux", "amd64"), sum)
	var out bytes.Buffer
	if err := installCPU(o, &out); err != nil {
		t.Fatal(err)
	}
	if want := "sha256 " + sum + ": matches cmd/xla-install/sha256.txt"; !strings.Contains(out.String(), want) {
		t.Errorf("output %q; want it to contain %q", out.String(), want)
	}
	got, err := os.ReadFile(filepath.Join(o.dir, "pjrt_c_api_cpu_plugin.so"))
	if err != nil || string(got) != "plugin bytes" {
		t.Errorf("the link pjrt_c_api_cpu_plugin.so reads %q, %v; want the plugin", got, err)
	}
	if _, err := os.Stat(pluginFile(o)); err != nil {
		t.Errorf("stat %s: %v", pluginFile(o), err)
	}
}

func TestInstallCPUWrongSumInstallsNothing(t *testing.T) {
	o, sum, _ := cpuFixture(t, strings.Repeat("0", 64))
	err := installCPU(o, new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "sha256 "+sum+", want "+strings.Repeat("0", 64)) {
		t.Fatalf("installCPU = %v; want a sha256 mismatch naming both sums", err)
	}
	entries, _ := os.ReadDir(o.dir)
	if len(entries) != 0 {
		t.Errorf("%s holds %d entries after a failed check; want none", o.dir, len(entries))
	}
}

func TestInstallCPUUnrecordedSumIsPrinted(t *testing.T) {
	o, sum, _ := cpuFixture(t, unrecorded)
	var out bytes.Buffer
	if err := installCPU(o, &out); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("v9.9.9   %s   %s", cpuAsset("linux", "amd64"), sum)
	if !strings.Contains(out.String(), "not yet recorded") || !strings.Contains(out.String(), line) {
		t.Errorf("output %q; want it to say the sum is not recorded and give the line %q", out.String(), line)
	}
}

func TestInstallCPURequireSumRefusesUnrecorded(t *testing.T) {
	o, _, requests := cpuFixture(t, unrecorded)
	o.requireSHA256 = true
	err := installCPU(o, new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "-require-sha256") {
		t.Fatalf("installCPU = %v; want a refusal naming -require-sha256", err)
	}
	if *requests != 0 {
		t.Errorf("%d requests; want none (refuse before downloading)", *requests)
	}
}

func TestInstallCPUSHA256FlagMustAgreeWithRecord(t *testing.T) {
	o, sum, _ := cpuFixture(t, "")
	cpuSumsFile = fmt.Sprintf("v9.9.9 %s %s\n", cpuAsset("linux", "amd64"), sum)
	o.sha256 = strings.Repeat("1", 64)
	if err := installCPU(o, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "differs from the sum recorded") {
		t.Errorf("installCPU = %v; want -sha256 refused for differing from the record", err)
	}
}

func TestFetchRetriesServerErrors(t *testing.T) {
	old := retryDelay
	retryDelay = 0
	t.Cleanup(func() { retryDelay = old })
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		if calls == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	defer srv.Close()
	dst := filepath.Join(t.TempDir(), "f")
	sum, err := fetch(srv.URL+"/f", dst, "")
	if err != nil || sum != sha256Of([]byte("ok")) || calls != 2 {
		t.Errorf("fetch = %q, %v after %d calls; want the sum of \"ok\" after 2 calls", sum, err, calls)
	}
	calls = 0
	if _, err := fetch(srv.URL+"/missing", dst, ""); err == nil || calls != 1 {
		t.Errorf("fetch of a 404 = %v after %d calls; want an error after 1 call", err, calls)
	}
}

func TestEmbeddedLockPinsTheCUDAVersion(t *testing.T) {
	wheels, err := parseLock(cudaLockFile)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, w := range wheels {
		names[normalizeName(w.name)] = w.version
	}
	if got := names[cudaPJRTPackage]; got != CUDAVersion {
		t.Errorf("the lock pins %s at %q; want CUDAVersion %q", cudaPJRTPackage, got, CUDAVersion)
	}
	if got := names[cudaMetaPackage]; got != CUDAVersion {
		t.Errorf("the lock pins %s at %q; want CUDAVersion %q", cudaMetaPackage, got, CUDAVersion)
	}
	nvidia := 0
	for n := range names {
		if strings.HasPrefix(n, "nvidia-") {
			nvidia++
		}
	}
	if nvidia < 5 {
		t.Errorf("the lock has %d nvidia-* packages; want the CUDA libraries (cuBLAS, cuDNN, ...)", nvidia)
	}
	in, err := os.ReadFile("cuda13/requirements.in")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{cudaPJRTPackage, cudaMetaPackage} {
		if !regexp.MustCompile(`(?m)^` + pkg + `(\[[^\]]*\])?==` + regexp.QuoteMeta(CUDAVersion) + `$`).Match(in) {
			t.Errorf("cuda13/requirements.in does not pin %s==%s", pkg, CUDAVersion)
		}
	}
}

func TestParseLockErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", "no packages"},
		{"a==1 \\\n", "has no --hash"},
		{"a>=1 \\\n    --hash=sha256:" + strings.Repeat("a", 64), "want name==version"},
		{"--hash=sha256:" + strings.Repeat("a", 64), "a hash before any package"},
		{"a==1 \\\n    --hash=sha256:xyz", "bad sha256"},
	}
	for _, tc := range tests {
		if _, err := parseLock(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseLock(%q) = %v; want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func TestPickFile(t *testing.T) {
	good, other := strings.Repeat("a", 64), strings.Repeat("b", 64)
	w := lockedWheel{name: "nvidia-cublas", version: "13.1", hashes: []string{good}}
	files := []indexFile{
		{Filename: "nvidia_cublas-13.1-py3-none-manylinux_2_27_aarch64.whl", Hashes: map[string]string{"sha256": good}},
		{Filename: "nvidia_cublas-13.10-py3-none-manylinux_2_27_x86_64.whl", Hashes: map[string]string{"sha256": good}},
		{Filename: "nvidia_cublas-13.1-py3-none-win_amd64.whl", Hashes: map[string]string{"sha256": good}},
		{Filename: "nvidia_cublas-13.1-py3-none-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", Hashes: map[string]string{"sha256": good}, URL: "u"},
	}
	f, err := pickFile(w, files)
	if err != nil || f.URL != "u" {
		t.Errorf("pickFile = %+v, %v; want the x86_64 manylinux wheel of version 13.1", f, err)
	}
	w.hashes = []string{other}
	if _, err := pickFile(w, files); err == nil || !strings.Contains(err.Error(), "has a sha256 the lock lists") {
		t.Errorf("pickFile with no locked hash = %v; want an error saying so", err)
	}
	w.version = "14"
	if _, err := pickFile(w, files); err == nil || !strings.Contains(err.Error(), "no linux x86_64 wheel") {
		t.Errorf("pickFile of a missing version = %v; want an error saying so", err)
	}
}

func TestIndexFilesJSONAndHTML(t *testing.T) {
	sum := strings.Repeat("c", 64)
	jsonBody := fmt.Sprintf(`{"files":[{"filename":"x_y-1-py3-none-any.whl","url":"../../files/x_y-1-py3-none-any.whl","hashes":{"sha256":%q}}]}`, sum)
	htmlBody := fmt.Sprintf(`<html><body><a href="https://files.example/x_y-1-py3-none-any.whl#sha256=%s" data-requires-python="&gt;=3">x_y-1-py3-none-any.whl</a></body></html>`, sum)
	srv, _ := serve(t, map[string][]byte{
		"/json/x-y/": []byte(jsonBody),
		"/html/x-y/": []byte(htmlBody),
	}, map[string]string{"/json/x-y/": "application/vnd.pypi.simple.v1+json", "/html/x-y/": "text/html"})
	for _, tc := range []struct{ index, url string }{
		{srv.URL + "/json", srv.URL + "/files/x_y-1-py3-none-any.whl"},
		{srv.URL + "/html/", "https://files.example/x_y-1-py3-none-any.whl"},
	} {
		files, err := indexFiles(tc.index, "X_Y")
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 1 || files[0].URL != tc.url || files[0].Hashes["sha256"] != sum || files[0].Filename != "x_y-1-py3-none-any.whl" {
			t.Errorf("indexFiles(%s) = %+v; want one file at %s with its sha256", tc.index, files, tc.url)
		}
	}
}

// TestInstallCUDALayout installs a fake lock from a fake index and checks
// go-xla's layout: the plugin and the libraries under <dir>/nvidia, ptxas
// in nvidia/bin, cuBLAS linked next to the go-xla folder.
func TestInstallCUDALayout(t *testing.T) {
	pjrtWheel := zipOf(t, map[string]string{"jax_plugins/xla_cuda13/xla_cuda_plugin.so": "cuda plugin", "jax_plugins/xla_cuda13/__init__.py": ""})
	cublasWheel := zipOf(t, map[string]string{"nvidia/cu13/lib/libcublas.so.13": "cublas", "nvidia/cu13/bin/ptxas": "ptxas",
		"nvidia/cu13/nvvm/libdevice/libdevice.10.bc": "libdevice"})
	bodies := map[string][]byte{
		"/files/p.whl": pjrtWheel,
		"/files/c.whl": cublasWheel,
	}
	types := map[string]string{}
	index := map[string]string{
		"jax-cuda13-pjrt": fmt.Sprintf(`{"files":[{"filename":"jax_cuda13_pjrt-%s-py3-none-manylinux_2_27_x86_64.whl","url":"/files/p.whl","hashes":{"sha256":%q}}]}`, CUDAVersion, sha256Of(pjrtWheel)),
		"nvidia-cublas":   fmt.Sprintf(`{"files":[{"filename":"nvidia_cublas-13.1-py3-none-manylinux_2_27_x86_64.whl","url":"/files/c.whl","hashes":{"sha256":%q}}]}`, sha256Of(cublasWheel)),
	}
	for name, body := range index {
		bodies["/simple/"+name+"/"] = []byte(body)
		types["/simple/"+name+"/"] = "application/vnd.pypi.simple.v1+json"
	}
	srv, _ := serve(t, bodies, types)
	t.Setenv("PIP_INDEX_URL", srv.URL+"/simple")
	old := cudaLockFile
	cudaLockFile = fmt.Sprintf("jax-cuda13-pjrt==%s \\\n    --hash=sha256:%s\njax-cuda13-plugin==%s \\\n    --hash=sha256:%s\nnvidia-cublas==13.1 \\\n    --hash=sha256:%s\n",
		CUDAVersion, sha256Of(pjrtWheel), CUDAVersion, strings.Repeat("e", 64), sha256Of(cublasWheel))
	t.Cleanup(func() { cudaLockFile = old })

	lib := t.TempDir()
	o := options{plugin: "cuda", version: CUDAVersion, dir: filepath.Join(lib, "go-xla"), goos: "linux", goarch: "amd64"}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := installCUDA(o, &out); err != nil {
		t.Fatalf("installCUDA: %v\n%s", err, out.String())
	}
	for path, want := range map[string]string{
		pluginFile(o): "cuda plugin",
		filepath.Join(o.dir, "nvidia", "cu13", "lib", "libcublas.so.13"):       "cublas",
		filepath.Join(o.dir, "nvidia", "bin", "ptxas"):                         "ptxas",
		filepath.Join(o.dir, "nvidia", "nvvm", "libdevice", "libdevice.10.bc"): "libdevice",
		filepath.Join(lib, "libcublas.so.13"):                                  "cublas",
	} {
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s reads %q, %v; want %q", path, got, err, want)
		}
	}
	if strings.Contains(out.String(), "jax-cuda13-plugin") {
		t.Errorf("output %q: jax-cuda13-plugin's own wheel should not be downloaded", out.String())
	}
}

func TestMissingLibraries(t *testing.T) {
	out := "\tlinux-vdso.so.1 (0x00007ffd)\n" +
		"\tlibcuda.so.1 => not found\n" +
		"\tlibcudnn.so.9 => not found\n" +
		"\tlibcublas.so.13 => /usr/local/lib/libcublas.so.13 (0x0001)\n" +
		"\tlibnccl.so.2 => not found\n" +
		"\tlibnccl.so.2 => not found\n"
	got := missingLibraries(out)
	if want := []string{"libcudnn.so.9", "libnccl.so.2"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("missingLibraries = %v; want %v (libcuda.so.1 is the driver's)", got, want)
	}
}

func TestCheckLibrariesRejectsABrokenPlugin(t *testing.T) {
	if _, err := exec.LookPath("ldd"); err != nil {
		t.Skip("no ldd")
	}
	dir := filepath.Join(t.TempDir(), "nvidia")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(dir, "pjrt_c_api_cuda_plugin.so")
	if err := os.WriteFile(plugin, []byte("not ELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkLibraries(plugin, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), plugin) {
		t.Errorf("checkLibraries = %v; want an error naming the plugin", err)
	}
}
