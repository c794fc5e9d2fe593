package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/posenc/course/pkg/posenc"
)

// usageError is a problem with the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// paramError turns a library error into a usage error naming the flag that
// set the offending parameter; names maps posenc's parameter names (as in
// ParamError.Param) to flag names. Other errors pass through unchanged.
func paramError(err error, names map[string]string) error {
	var pe *posenc.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	if name, ok := names[pe.Param]; ok {
		return usagef("-%s %s, got %v", name, pe.Reason, pe.Value)
	}
	return usagef("%s", strings.TrimPrefix(pe.Error(), "posenc: "))
}

// maxValues bounds how many numbers one command prints (4M: a 4096×1024
// table), so that a typo in -len is an error, not minutes of output.
const maxValues = 1 << 22

// checkSize returns a usage error naming the flag when the product of sizes
// exceeds limit.
func checkSize(name string, limit int, sizes ...int) error {
	n := 1
	for _, s := range sizes {
		if s <= 0 {
			return nil // reported by the caller's positivity checks
		}
		if n > limit/s {
			return usagef("-%s is too large: the output would have more than %d values", name, limit)
		}
		n *= s
	}
	return nil
}

// checkPositive returns a usage error unless the flag's value is positive.
func checkPositive(name string, v int) error {
	if v <= 0 {
		return usagef("-%s must be positive, got %d", name, v)
	}
	return nil
}

// orList spells choices as "a, b or c".
func orList(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// quote quotes user text so that a message stays on one line.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

// oneLine replaces line breaks so that an error message is a single line:
// the flag package does not quote the names of unknown flags.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
