package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// version is a Node.js release, major.minor.patch.
type version [3]int

func (v version) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }

// parseVersion parses "v20.20.2" or "20.20.2", as node --version prints
// it.
func parseVersion(s string) (version, error) {
	var v version
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
	if len(parts) != 3 {
		return v, fmt.Errorf("want a version major.minor.patch, got %q", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, fmt.Errorf("want a version major.minor.patch, got %q", s)
		}
		v[i] = n
	}
	return v, nil
}

// bound is one comparison: v op ver.
type bound struct {
	op  string // ">=", ">", "<", "<="
	ver version
}

func (b bound) holds(v version) bool {
	c := slices.Compare(v[:], b.ver[:])
	switch b.op {
	case ">=":
		return c >= 0
	case ">":
		return c > 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	}
	return false
}

// partial is a version as a range writes it: "20", "8.*", "0.10.0", "*";
// n is how many of its numbers are given before a wildcard or the end.
type partial struct {
	nums [3]int
	n    int
}

func parsePartial(s string) (partial, error) {
	var p partial
	s = strings.TrimPrefix(s, "v")
	if s == "" || s == "*" || s == "x" || s == "X" {
		return p, nil
	}
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return p, fmt.Errorf("bad version %q", s)
	}
	for i, part := range parts {
		if part == "*" || part == "x" || part == "X" {
			for _, rest := range parts[i+1:] {
				if rest != "*" && rest != "x" && rest != "X" {
					return p, fmt.Errorf("bad version %q", s)
				}
			}
			break
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return p, fmt.Errorf("bad version %q", s)
		}
		p.nums[i] = n
		p.n = i + 1
	}
	return p, nil
}

// next is the first version past every one the partial stands for: 8.* →
// 9.0.0, 1.2 → 1.3.0, 1.2.3 → 1.2.4.
func (p partial) next() version {
	v := version(p.nums)
	if p.n == 0 {
		return version{1 << 30}
	}
	v[p.n-1]++
	for i := p.n; i < 3; i++ {
		v[i] = 0
	}
	return v
}

// comparatorBounds turns one comparator of npm's range syntax
// (node-semver) into bounds: ">=20", "<1.2", "^1.2.3", "~1.2", "8.*", "*".
func comparatorBounds(c string) ([]bound, error) {
	op := ""
	for _, o := range []string{">=", "<=", ">", "<", "=", "^", "~"} {
		if strings.HasPrefix(c, o) {
			op, c = o, strings.TrimSpace(c[len(o):])
			break
		}
	}
	p, err := parsePartial(c)
	if err != nil {
		return nil, err
	}
	low := version(p.nums)
	switch op {
	case "", "=":
		if p.n == 0 {
			return nil, nil
		}
		return []bound{{">=", low}, {"<", p.next()}}, nil
	case ">=":
		return []bound{{">=", low}}, nil
	case ">":
		if p.n < 3 {
			return []bound{{">=", p.next()}}, nil
		}
		return []bound{{">", low}}, nil
	case "<":
		return []bound{{"<", low}}, nil
	case "<=":
		if p.n < 3 {
			return []bound{{"<", p.next()}}, nil
		}
		return []bound{{"<=", low}}, nil
	case "~":
		up := partial{nums: p.nums, n: min(max(p.n, 1), 2)}
		return []bound{{">=", low}, {"<", up.next()}}, nil
	case "^":
		// The first non-zero number given may not change.
		keep := p.n
		for i := 0; i < p.n; i++ {
			if p.nums[i] != 0 || i == p.n-1 {
				keep = i + 1
				break
			}
		}
		up := partial{nums: p.nums, n: keep}
		return []bound{{">=", low}, {"<", up.next()}}, nil
	}
	return nil, fmt.Errorf("bad comparator %q", c)
}

// satisfies reports whether v is in the npm range r (alternatives joined
// by "||", each a space-separated list of comparators or "A - B"). A range
// it cannot read is an error, never a pass.
func satisfies(v version, r string) (bool, error) {
	for _, alt := range strings.Split(r, "||") {
		bounds, err := rangeBounds(alt)
		if err != nil {
			return false, fmt.Errorf("range %q: %v", r, err)
		}
		ok := true
		for _, b := range bounds {
			ok = ok && b.holds(v)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

func rangeBounds(alt string) ([]bound, error) {
	fields := strings.Fields(alt)
	if len(fields) == 3 && fields[1] == "-" {
		lo, err := parsePartial(fields[0])
		if err != nil {
			return nil, err
		}
		hi, err := comparatorBounds("<=" + fields[2])
		if err != nil {
			return nil, err
		}
		return append([]bound{{">=", version(lo.nums)}}, hi...), nil
	}
	// An operator may stand apart from its version: ">= 10.*".
	var comps []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.Trim(f, "<>=^~") == "" && i+1 < len(fields) {
			f += fields[i+1]
			i++
		}
		comps = append(comps, f)
	}
	var bounds []bound
	for _, c := range comps {
		b, err := comparatorBounds(c)
		if err != nil {
			return nil, err
		}
		bounds = append(bounds, b...)
	}
	return bounds, nil
}
