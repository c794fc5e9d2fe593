package machine

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestParseLoadAverage(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [3]float64
		ok   bool
	}{
		{"0.52 0.61 0.70 1/234 5678\n", [3]float64{0.52, 0.61, 0.70}, true},
		{"0.00 0.00 0.00 1/99 1", [3]float64{}, true}, // idle, not unknown
		{"12.5 3 0.25", [3]float64{12.5, 3, 0.25}, true},
		{"", [3]float64{}, false},
		{"0.52 0.61", [3]float64{}, false},
		{"0.52 x 0.70", [3]float64{}, false}, // all three or none
		{"-1 0 0", [3]float64{}, false},
	} {
		if got, ok := parseLoadAverage(c.in); got != c.want || ok != c.ok {
			t.Errorf("parseLoadAverage(%q) = %v, %t; want %v, %t", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestLoadText(t *testing.T) {
	for _, c := range []struct {
		l    [3]float64
		ok   bool
		want string
	}{
		{[3]float64{0.52, 0.6, 0.714}, true, "0.52 0.60 0.71"},
		{[3]float64{}, true, "0.00 0.00 0.00"},
		{[3]float64{}, false, "unknown"},
	} {
		if got := loadText(c.l, c.ok); got != c.want {
			t.Errorf("loadText(%v, %t) = %q; want %q", c.l, c.ok, got, c.want)
		}
	}
	// This machine's, as /proc/loadavg writes it where there is one.
	want := regexp.MustCompile(`^\d+\.\d\d \d+\.\d\d \d+\.\d\d$`)
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		want = regexp.MustCompile(`^unknown$`)
	}
	if got := LoadText(); !want.MatchString(got) {
		t.Errorf("LoadText() = %q; want it to match %s", got, want)
	}
}

func TestCPUModel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9B14\nmodel name\t: another\n", "AMD EPYC 9B14"},
		{"processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n", ""}, // arm64 has no model name
		{"", ""},
	} {
		if got := cpuModel(strings.NewReader(c.in)); got != c.want {
			t.Errorf("cpuModel(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	d := Describe()
	cpu := CPUModel()
	if cpu == "" {
		cpu = runtime.GOARCH
	}
	if want := fmt.Sprintf("%s, %d cores, load %s", cpu, runtime.NumCPU(), ""); !strings.HasPrefix(d, want) || len(d) <= len(want) {
		t.Errorf("Describe() = %q; want %q followed by the load", d, want)
	}
}

func TestPeakRSSMiB(t *testing.T) {
	got := PeakRSSMiB()
	switch runtime.GOOS {
	case "linux", "darwin":
		// A Go test binary holds a few MiB at least, and not terabytes.
		if got < 1 || got > 1<<20 {
			t.Errorf("PeakRSSMiB() = %g; want this process's peak in MiB", got)
		}
	}
}
