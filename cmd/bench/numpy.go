package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
)

// numpyRun is one run of scripts/bench_numpy.py.
type numpyRun struct {
	Version string               `json:"numpy"`
	Seconds map[string][]float64 `json:"seconds"`
}

// numpyPrecision is bench_numpy.py --precision's report on the float32
// textbook table near position 1,000,000.
type numpyPrecision struct {
	MaxAbsError float64 `json:"max_abs_error"`
	Position    int     `json:"position"`
	Column      int     `json:"column"`
	At1000000   float64 `json:"at_1000000"`
}

// ensureNumpy checks that c.python imports numpy and, unless told not to,
// installs Debian's python3-numpy when it does not (as root, with apt-get).
func ensureNumpy(c config, log io.Writer) error {
	check := func() error { return exec.Command(c.python, "-c", "import numpy").Run() }
	if check() == nil {
		return nil
	}
	if c.noInstall {
		return fmt.Errorf("%s cannot import numpy (install python3-numpy, or use --no-numpy)", c.python)
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("%s cannot import numpy: run `sudo apt-get install python3-numpy`, or use --no-numpy", c.python)
	}
	fmt.Fprintln(log, "bench: installing python3-numpy with apt-get")
	for _, args := range [][]string{{"update"}, {"install", "-y", "--no-install-recommends", "python3-numpy"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Stdout, cmd.Stderr = log, log
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("apt-get %v: %v", args, err)
		}
	}
	if err := check(); err != nil {
		return fmt.Errorf("%s still cannot import numpy after installing python3-numpy", c.python)
	}
	return nil
}

func runNumpy(c config) (numpyRun, error) {
	var r numpyRun
	out, err := pythonOutput(c, "--repeat", strconv.Itoa(c.numpyRepeat))
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("reading %s's output: %v\n%s", c.script, err, out)
	}
	return r, nil
}

func runNumpyPrecision(c config) (numpyPrecision, error) {
	var p numpyPrecision
	out, err := pythonOutput(c, "--precision")
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(out, &p); err != nil {
		return p, fmt.Errorf("reading %s --precision: %v\n%s", c.script, err, out)
	}
	return p, nil
}

func pythonOutput(c config, args ...string) ([]byte, error) {
	cmd := exec.Command(c.python, append([]string{c.script}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v\n%s", c.python, c.script, err, errOut.String())
	}
	return out.Bytes(), nil
}
