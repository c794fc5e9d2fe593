package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sumsFixture serves a fake CPU release v9.9.9 for every platform, whose
// archives each hold a plugin of their own, with recorded as the content
// of sha256.txt. It returns the archives' sums and their plugins' sums.
func sumsFixture(t *testing.T, recorded func(asset string) string) (archiveSums, pluginSums map[string]string) {
	t.Helper()
	archiveSums, pluginSums = map[string]string{}, map[string]string{}
	bodies := map[string][]byte{}
	var sumsText strings.Builder
	for _, p := range cpuPlatforms {
		asset := cpuAsset(p.goos, p.goarch)
		plugin := "plugin for " + p.goos + "/" + p.goarch
		archive := tarGz(t, map[string]string{"pjrt_c_api_cpu_v9.9.9_plugin.so": plugin})
		bodies["/v9.9.9/"+asset] = archive
		archiveSums[asset], pluginSums[asset] = sha256Of(archive), sha256Of([]byte(plugin))
		fmt.Fprintf(&sumsText, "v9.9.9 %s %s\n", asset, recorded(asset))
	}
	srv, _ := serve(t, bodies, nil)
	oldBase, oldSums := cpuReleaseBase, cpuSumsFile
	cpuReleaseBase, cpuSumsFile = srv.URL, sumsText.String()
	t.Cleanup(func() { cpuReleaseBase, cpuSumsFile = oldBase, oldSums })
	return archiveSums, pluginSums
}

// TestSumsPrintsTheSumInstallVerifies is the release path: -sums prints a
// sha256.txt line per platform, the sum of the .tar.gz (not of the plugin
// in it); recorded as printed, an install that requires a recorded sum
// accepts the archive, and records the same line where it installed.
func TestSumsPrintsTheSumInstallVerifies(t *testing.T) {
	archiveSums, pluginSums := sumsFixture(t, func(string) string { return unrecorded })
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-sums", dir, "-version", "v9.9.9")
	if code != exitOK {
		t.Fatalf("-sums: exit status %d, stderr %q", code, errOut)
	}
	written, err := os.ReadFile(filepath.Join(dir, "sha256.txt"))
	if err != nil {
		t.Fatal(err)
	}
	printed, err := parseSums(string(written))
	if err != nil {
		t.Fatalf("%s/sha256.txt does not parse as cmd/xla-install/sha256.txt: %v", dir, err)
	}
	for asset, sum := range archiveSums {
		line := sumsLine("v9.9.9", asset, sum)
		if !strings.Contains(out, line+"\n  not yet recorded") {
			t.Errorf("stdout %q; want the line %q, not yet recorded", out, line)
		}
		if got := printed["v9.9.9/"+asset]; got != sum {
			t.Errorf("sha256.txt gives %s %q; want the archive's sum %q", asset, got, sum)
		}
		if strings.Contains(out, pluginSums[asset]) {
			t.Errorf("stdout names the sum of the plugin in %s (%s): the install checks the archive's", asset, pluginSums[asset])
		}
		if _, err := os.Stat(filepath.Join(dir, asset)); err != nil {
			t.Errorf("%s was not kept for -runtime-check: %v", asset, err)
		}
	}

	// Record what was printed, then install as a release build does.
	cpuSumsFile = string(written)
	o := options{plugin: "cpu", version: "v9.9.9", dir: t.TempDir(), goos: "linux", goarch: "arm64", requireSHA256: true}
	var install bytes.Buffer
	if err := installCPU(o, &install); err != nil {
		t.Fatalf("installCPU with the printed sums recorded: %v", err)
	}
	asset := cpuAsset("linux", "arm64")
	if want := "sha256 " + archiveSums[asset] + ": matches cmd/xla-install/sha256.txt"; !strings.Contains(install.String(), want) {
		t.Errorf("install output %q; want %q", install.String(), want)
	}
	got, err := os.ReadFile(filepath.Join(o.dir, installedSumsFile))
	if err != nil || string(got) != sumsLine("v9.9.9", asset, archiveSums[asset])+"\n" {
		t.Errorf("%s in the plugin's folder reads %q, %v; want the line -sums printed", installedSumsFile, got, err)
	}
}

// TestSumsFailsOnADifferentRecord prints every sum, then fails naming the
// asset whose sum differs from the recorded one.
func TestSumsFailsOnADifferentRecord(t *testing.T) {
	bad := cpuAsset("darwin", "arm64")
	archiveSums, _ := sumsFixture(t, func(asset string) string {
		if asset == bad {
			return strings.Repeat("0", 64)
		}
		return unrecorded
	})
	code, out, errOut := runCLI(t, "-sums", t.TempDir(), "-version", "v9.9.9")
	if code != exitFailure || !strings.Contains(errOut, bad) || !strings.Contains(errOut, strings.Repeat("0", 64)) {
		t.Errorf("-sums with a wrong record: exit status %d, stderr %q; want %d naming %s and the recorded sum", code, errOut, exitFailure, bad)
	}
	for asset, sum := range archiveSums {
		if !strings.Contains(out, sumsLine("v9.9.9", asset, sum)) {
			t.Errorf("stdout %q; want every sum printed, %s's too", out, asset)
		}
	}
}

func TestRecordInstalledReplacesTheSameAsset(t *testing.T) {
	dir := t.TempDir()
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	for _, step := range []struct{ version, asset, sum string }{
		{"v1", "x.tar.gz", a}, {"v2", "x.tar.gz", a}, {"v1", "x.tar.gz", b},
	} {
		if err := recordInstalled(dir, step.version, step.asset, step.sum); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, installedSumsFile))
	want := sumsLine("v2", "x.tar.gz", a) + "\n" + sumsLine("v1", "x.tar.gz", b) + "\n"
	if string(got) != want {
		t.Errorf("recorded %q; want %q", got, want)
	}
}
