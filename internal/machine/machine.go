// Package machine reads the facts about this machine that benchmarks and
// the lab record beside their numbers: the CPU, its load, the peak memory.
package machine

import (
	"bufio"
	"fmt"
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

// LoadText returns the load averages as "0.52 0.60 0.71", or "unknown".
func LoadText() string {
	l := LoadAverage()
	if l == [3]float64{} {
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
