package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

func defineConfig(f *flags) func(io.Writer) error {
	f.synopsis = "FILE|MODEL [-json]"
	f.positional = "FILE (a config.json, or the name of a shipped fixture)"
	asJSON := f.JSON()
	f.notes = []string{
		"Reads the position settings of a Hugging Face config.json as transformers v5 does\n" +
			"(rope_scaling or rope_parameters, per layer type; layer_types, no_rope_layers,\n" +
			"sliding_window, partial_rotary_factor, …) and prints one row per layer: its type,\n" +
			"window, RoPE base, rotating pairs of the head, pair layout (interleaved: adjacent\n" +
			"pairs; halves: i with i+d/2; and that of a sparse-attention indexer), scaling, attention factor and the wavelength of its\n" +
			"slowest rotating pair, query temperature and learned attention sinks; \"none\" for a layer without positions. Settings transformers\n" +
			"accepts with a warning are printed as warnings.\n" +
			"An unknown or inconsistent position field is an error naming it.\n" +
			"MODEL is one of the configs shipped with the course: " + strings.Join(modelconfigs.AllNames(), ", ") + ".",
	}
	f.examples = []string{
		"posenc config gemma-4-e2b",
		"posenc config path/to/config.json -json",
	}
	return func(w io.Writer) error {
		data, err := readConfig(f.arg)
		if err != nil {
			return err
		}
		m, err := posenc.ParseHFConfig(data)
		if err != nil {
			return usagef("%s: %s", f.arg, strings.TrimPrefix(err.Error(), "posenc: "))
		}
		rows, err := configRows(m)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeConfigJSON(w, m, rows)
		}
		return writeConfigTable(w, m, rows)
	}
}

// readConfig reads path, or the shipped fixture of that name when no such
// file exists.
func readConfig(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		return data, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if fixture, ferr := modelconfigs.Lookup(path); ferr == nil && !strings.Contains(path, "/") {
			return fixture, nil
		}
		return nil, usagef("%s: no such file, nor a shipped config (%s)", quote(path), strings.Join(modelconfigs.AllNames(), ", "))
	}
	return nil, usagef("%s", err)
}

// configRow is one layer's line.
type configRow struct {
	layer       int
	l           posenc.LayerPositions
	pairs, half int
	wavelength  float64
}

func configRows(m *posenc.ModelPositions) ([]configRow, error) {
	rows := make([]configRow, len(m.Layers))
	for i, l := range m.Layers {
		rows[i] = configRow{layer: i, l: l}
		if l.RoPE == nil {
			continue
		}
		wl, err := l.RoPE.LongestWavelength()
		if err != nil {
			return nil, err
		}
		rows[i].pairs, rows[i].half, rows[i].wavelength = l.RoPE.RotatedPairs(), l.RoPE.HeadDim/2, wl
	}
	return rows, nil
}

func scalingText(r *posenc.RoPE) string {
	sc := r.Scaling
	switch sc.Kind {
	case posenc.ScalingNone:
		return "none"
	case posenc.ScalingProportional:
		return "p-RoPE " + strconv.FormatFloat(sc.Proportion, 'g', -1, 64)
	}
	return fmt.Sprintf("%s ×%g", sc.Kind, sc.Factor)
}

// layoutText names a pair layout as the table and -json print it.
func layoutText(l posenc.Layout) string {
	if l == posenc.Interleaved {
		return "interleaved"
	}
	return "halves"
}

func writeConfigTable(w io.Writer, m *posenc.ModelPositions, rows []configRow) error {
	head := fmt.Sprintf("model_type %s: %d layers, max_position_embeddings %d, trained on %d, head_dim %d",
		m.ModelType, len(m.Layers), m.MaxPositions, m.TrainedLen, m.HeadDim)
	if d := m.Decoupled; d != nil {
		if anyRoPE(m) {
			head += fmt.Sprintf(" (decoupled: %d position-free + %d rotary)", d.NopeDim, d.RopeDim)
		} else {
			// Kimi Linear's MLA is "with NoPE": its qk_rope_head_dim
			// part is never rotated.
			head += fmt.Sprintf(" (MLA: %d + %d dimensions, none rotated: no layer has RoPE)", d.NopeDim, d.RopeDim)
		}
	}
	for _, warning := range m.Warnings {
		head += "\nwarning: " + warning
	}
	if _, err := io.WriteString(w, head+"\n"); err != nil {
		return err
	}
	header := []string{"layer", "type", "window", "base", "pairs", "layout", "scaling", "attn×", "longest λ", "temperature", "sinks"}
	return writeTable(w, header, len(rows), func(r, c int) string {
		row := rows[r]
		rope := row.l.RoPE
		if rope == nil && c >= 3 && c <= 8 {
			if c == 3 {
				return "none"
			}
			return "-"
		}
		switch c {
		case 0:
			return strconv.Itoa(row.layer)
		case 1:
			return row.l.Type
		case 2:
			if row.l.Window == 0 {
				return "-"
			}
			return strconv.Itoa(row.l.Window)
		case 3:
			return strconv.FormatFloat(rope.Base, 'g', -1, 64)
		case 4:
			return fmt.Sprintf("%d/%d", row.pairs, row.half)
		case 5:
			text := layoutText(rope.Layout)
			if ix := row.l.Indexer; ix != nil {
				text += ", indexer " + layoutText(ix.Layout)
			}
			if sec := row.l.MRoPESection; sec != nil {
				text += ", mrope " + strings.Trim(strings.ReplaceAll(fmt.Sprint(sec), " ", "/"), "[]")
				if row.l.MRoPEInterleaved {
					text += " interleaved"
				}
			}
			return text
		case 6:
			return scalingText(rope)
		case 7:
			return strconv.FormatFloat(rope.AttentionFactor(), 'f', 4, 64)
		case 8:
			return strconv.FormatFloat(row.wavelength, 'f', 0, 64)
		}
		if c == 10 {
			if row.l.Sinks {
				return "learned"
			}
			return "-"
		}
		if t := row.l.Temperature; t != nil {
			if t.FromZero {
				return fmt.Sprintf("log(⌊p/%g⌋+1)·%g+1", t.FloorScale, t.Scale)
			}
			return fmt.Sprintf("log(⌊(p+1)/%g⌋+1)·%g+1", t.FloorScale, t.Scale)
		}
		return "-"
	})
}

// anyRoPE reports whether some layer of m rotates.
func anyRoPE(m *posenc.ModelPositions) bool {
	for _, l := range m.Layers {
		if l.RoPE != nil {
			return true
		}
	}
	return false
}

func writeConfigJSON(w io.Writer, m *posenc.ModelPositions, rows []configRow) error {
	var b strings.Builder
	fmt.Fprintf(&b, "{\"model_type\": %s, \"max_position_embeddings\": %d, \"trained_len\": %d, \"head_dim\": %d,\n \"layers\": [",
		strconv.Quote(m.ModelType), m.MaxPositions, m.TrainedLen, m.HeadDim)
	for i, row := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  {\"layer\": %d, \"type\": %s, \"window\": %d, \"rope\": ", row.layer, strconv.Quote(row.l.Type), row.l.Window)
		if r := row.l.RoPE; r == nil {
			b.WriteString("null")
		} else {
			freq, err := r.InvFreq()
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "{\"head_dim\": %d, \"rotated_pairs\": %d, \"layout\": %s, \"base\": %s, \"scaling\": %s, \"factor\": %s, \"attention_factor\": %s, \"longest_wavelength\": %s, \"inv_freq\": %s}",
				r.HeadDim, row.pairs, strconv.Quote(layoutText(r.Layout)), appendNumber(nil, r.Base, 64), strconv.Quote(r.Scaling.Kind.String()),
				appendNumber(nil, r.Scaling.Factor, 64), appendNumber(nil, r.AttentionFactor(), 64),
				appendNumber(nil, row.wavelength, 64), appendArray(nil, freq, 64))
		}
		if row.l.Sinks {
			b.WriteString(", \"sinks\": true")
		}
		if sec := row.l.MRoPESection; sec != nil {
			fmt.Fprintf(&b, ", \"mrope_section\": [%s], \"mrope_interleaved\": %t", strings.Trim(strings.ReplaceAll(fmt.Sprint(sec), " ", ", "), "[]"), row.l.MRoPEInterleaved)
		}
		if ix := row.l.Indexer; ix != nil {
			fmt.Fprintf(&b, ", \"indexer\": {\"layout\": %s}", strconv.Quote(layoutText(ix.Layout)))
		}
		if t := row.l.Temperature; t != nil {
			fmt.Fprintf(&b, ", \"temperature\": {\"attn_scale\": %s, \"floor_scale\": %s, \"from_zero\": %t}", appendNumber(nil, t.Scale, 64), appendNumber(nil, t.FloorScale, 64), t.FromZero)
		}
		b.WriteString("}")
	}
	b.WriteString("],\n \"warnings\": [")
	for i, warning := range m.Warnings {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(warning))
	}
	b.WriteString("]}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
