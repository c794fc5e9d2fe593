package lab

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// environment describes this machine for the results.
func environment(backendConfig string) Environment {
	env := Environment{
		Backend:      backendConfig,
		GoVersion:    runtime.Version(),
		GOEXPERIMENT: goexperiment(),
		CPU:          CPUModel(),
		Cores:        runtime.NumCPU(),
		LoadBefore:   LoadAverage(),
	}
	return env
}

// goexperiment returns the GOEXPERIMENT this binary was built with, from
// its build information ("" without one).
func goexperiment() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "GOEXPERIMENT" {
				return s.Value
			}
		}
	}
	return ""
}

// CPUModel returns the CPU's model name from /proc/cpuinfo ("" elsewhere).
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// LoadAverage returns the 1, 5 and 15 minute load averages (zeros where
// /proc/loadavg does not exist).
func LoadAverage() (l [3]float64) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return l
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return l
	}
	for i, f := range fields[:3] {
		l[i], _ = strconv.ParseFloat(f, 64)
	}
	return l
}

// peakRSSMiB returns the process's peak resident memory so far.
func peakRSSMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024 // kilobytes on Linux
}
