package lesson

// Must returns v, or stops the cell by panicking with err when err is not
// nil. Every posenc call returns an error that names the bad parameter and
// its value; in a lesson cell there is nothing to do with it but show it,
// so a call reads
//
//	table := lesson.Must(posenc.SinusoidalTable[float64](s, 0, n))
//
// The panic value is err itself, so errors.As still finds a
// *posenc.ParamError in a recovered value.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// NoError is Must for calls that return only an error, such as the
// destination-first functions:
//
//	lesson.NoError(posenc.ApplyRoPETo(q, q, cache, seq, 0))
func NoError(err error) {
	if err != nil {
		panic(err)
	}
}
