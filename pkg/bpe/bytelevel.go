package bpe

// GPT-2 writes each byte of the text as one printable Unicode character, so
// that the vocabulary and the merges are plain strings without spaces or
// control characters: the printable ASCII and Latin-1 bytes stand for
// themselves, and the other 68 (controls, space, DEL, NBSP, soft hyphen)
// take the characters from U+0100 on, in byte order. Space (0x20) becomes
// U+0120 'Ġ' and newline (0x0A) U+010A 'Ċ'. (bytes_to_unicode in OpenAI's
// gpt-2 repository, src/encoder.py.)

// byteRune[b] is the character that stands for byte b.
var byteRune [256]rune

// runeByte maps each of those characters back to its byte.
var runeByte = make(map[rune]byte, 256)

func init() {
	next := rune(256)
	for b := 0; b < 256; b++ {
		printable := ('!' <= b && b <= '~') || (0xA1 <= b && b <= 0xAC) || (0xAE <= b && b <= 0xFF)
		r := rune(b)
		if !printable {
			r = next
			next++
		}
		byteRune[b] = r
		runeByte[r] = byte(b)
	}
}

// byteSymbols returns the characters that stand for the bytes of piece,
// one string per byte: the symbols that merging starts from.
func byteSymbols(piece string) []string {
	symbols := make([]string, len(piece))
	for i := 0; i < len(piece); i++ {
		symbols[i] = string(byteRune[piece[i]])
	}
	return symbols
}

// ByteSymbol returns the character that stands for byte b in a byte-level
// vocabulary: "Ġ" for a space, "Ċ" for a newline, "a" for a.
func ByteSymbol(b byte) string { return string(byteRune[b]) }
