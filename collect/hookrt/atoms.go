package hookrt

// NopolAB records bool atom k of a condition into a, if not nil.
func NopolAB[T ~bool](a []NopolValue, k int, v T) T {
	if a != nil {
		a[k] = NopolValue{K: 1, B: bool(v)}
	}
	return v
}

// NopolAI records integer atom k of a condition into a, if not nil.
func NopolAI[T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](a []NopolValue, k int, v T) T {
	if a != nil {
		a[k] = NopolValue{K: 2, I: int64(v)}
	}
	return v
}

// NopolAF records float atom k of a condition into a, if not nil.
func NopolAF[T ~float32 | ~float64](a []NopolValue, k int, v T) T {
	if a != nil {
		a[k] = NopolF(float64(v))
	}
	return v
}

// NopolAS records string atom k of a condition into a, if not nil.
func NopolAS[T ~string](a []NopolValue, k int, v T) T {
	if a != nil {
		a[k] = NopolS(string(v))
	}
	return v
}
