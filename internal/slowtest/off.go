//go:build !slow

package slowtest

const on = false
