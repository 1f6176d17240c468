//go:build race

package astro

const raceEnabled = true
