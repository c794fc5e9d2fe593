package posenc

import "strings"

// nonFiniteMark starts the string that stands for a bare NaN, Infinity or
// -Infinity of a config.json: Python's json module writes them (a released
// config can hold one, e.g. a norm's clamp), encoding/json rejects them.
const nonFiniteMark = "\x00python:"

// pythonJSON returns data with every NaN, Infinity and -Infinity token
// outside a string replaced by a JSON string "\u0000python:<token>", so
// that the config decodes; a position field that holds one is then an
// error naming it (jsonFloat, jsonInt), and any other field is ignored.
func pythonJSON(data []byte) []byte {
	var out []byte // nil until the first replacement
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		b := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			if out != nil {
				out = append(out, b)
			}
			continue
		}
		if b == '"' {
			inString = true
		}
		for _, tok := range []string{"-Infinity", "Infinity", "NaN"} {
			if strings.HasPrefix(string(data[i:min(len(data), i+len(tok))]), tok) {
				if out == nil {
					out = append([]byte{}, data[:i]...)
				}
				out = append(out, `"\u0000python:`+tok+`"`...)
				i += len(tok) - 1
				b = 0
				break
			}
		}
		if b != 0 && out != nil {
			out = append(out, b)
		}
	}
	if out == nil {
		return data
	}
	return out
}

// shown returns v as an error message shows it: a bare NaN, Infinity or
// -Infinity of the file as itself.
func shown(v any) any {
	if s, ok := v.(string); ok && strings.HasPrefix(s, nonFiniteMark) {
		return strings.TrimPrefix(s, nonFiniteMark)
	}
	return v
}
