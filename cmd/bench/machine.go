package main

import (
	"os/exec"
	"runtime"
	"strings"

	"github.com/posenc/course/internal/machine"
)

// machineInfo says what the numbers were measured on.
type machineInfo struct {
	CPUModel   string   `json:"cpu_model"`
	CPUs       string   `json:"cpus"`
	L3         string   `json:"l3_cache"`
	SIMD       []string `json:"simd"` // the vector extensions posenc's kernels care about
	GoVersion  string   `json:"go_version"`
	GOMAXPROCS int      `json:"gomaxprocs"`
	Kernel     string   `json:"kernel,omitempty"`
	LoadBefore string   `json:"load_before"`
	LoadAfter  string   `json:"load_after"`
}

func readMachine() machineInfo {
	m := machineInfo{GoVersion: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0), LoadBefore: loadAverage()}
	if out, err := exec.Command("lscpu").Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			key, val, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			val = strings.TrimSpace(val)
			switch strings.TrimSpace(key) {
			case "Model name":
				m.CPUModel = val
			case "CPU(s)":
				m.CPUs = val
			case "L3 cache":
				m.L3 = val
			case "Flags":
				flags := " " + val + " "
				for _, f := range []string{"avx2", "fma", "avx512f"} {
					if strings.Contains(flags, " "+f+" ") {
						m.SIMD = append(m.SIMD, f)
					}
				}
			}
		}
	}
	if out, err := exec.Command("uname", "-sr").Output(); err == nil {
		m.Kernel = strings.TrimSpace(string(out))
	}
	return m
}

// loadAverage returns the 1-, 5- and 15-minute load averages as text, from
// the reader the lab shares.
func loadAverage() string { return machine.LoadText() }
