// Package machine reads the facts about this machine that benchmarks and
// the lab record beside their numbers: the CPU, its load, the peak memory.
package machine

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// CPUModel returns the CPU's model name from /proc/cpuinfo ("" where there
// is none).
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	return cpuModel(f)
}

// cpuModel returns the first "model name" of a /proc/cpuinfo.
func cpuModel(r io.Reader) string {
	s := bufio.NewScanner(r)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// LoadAverage returns the 1, 5 and 15 minute load averages (zeros where
// /proc/loadavg does not exist).
func LoadAverage() [3]float64 {
	l, _ := loadAverage()
	return l
}

// loadAverage returns the load averages and whether they could be read.
func loadAverage() ([3]float64, bool) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return [3]float64{}, false
	}
	return parseLoadAverage(string(data))
}

// parseLoadAverage reads the three load averages that begin a
// /proc/loadavg ("0.52 0.61 0.70 1/234 5678"): all three, or none.
func parseLoadAverage(text string) (l [3]float64, ok bool) {
	fields := strings.Fields(text)
	if len(fields) < 3 {
		return l, false
	}
	for i, f := range fields[:3] {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 {
			return [3]float64{}, false
		}
		l[i] = v
	}
	return l, true
}

// LoadText returns the load averages as "0.52 0.60 0.71", or "unknown".
func LoadText() string { return loadText(loadAverage()) }

// loadText formats load averages, "unknown" when they could not be read
// (an idle machine's 0.00 0.00 0.00 is a load like any other).
func loadText(l [3]float64, ok bool) string {
	if !ok {
		return "unknown"
	}
	return fmt.Sprintf("%.2f %.2f %.2f", l[0], l[1], l[2])
}

// Describe returns one line about this machine: CPU, cores, load.
func Describe() string {
	cpu := CPUModel()
	if cpu == "" {
		cpu = runtime.GOARCH
	}
	return fmt.Sprintf("%s, %d cores, load %s", cpu, runtime.NumCPU(), LoadText())
}
