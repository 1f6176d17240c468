package noren

import "strconv"

func itoa(n int) string              { return strconv.Itoa(n) }
func i64(n int64) string             { return strconv.FormatInt(n, 10) }
func strconvFormat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
