package fake

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
)

// render draws a small candlestick (or line) chart so every request gets a real,
// decodable image of the requested size and format (the pixels are assumed; the
// client checks only the type and size: docs › Advanced Chart).
func render(symbol, interval, style, theme, format string, w, h, studies int) ([]byte, error) {
	bg, grid := color.RGBA{255, 255, 255, 255}, color.RGBA{230, 232, 238, 255}
	if theme == "dark" {
		bg, grid = color.RGBA{19, 23, 34, 255}, color.RGBA{42, 46, 57, 255}
	}
	up, down := color.RGBA{8, 153, 129, 255}, color.RGBA{242, 54, 69, 255}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	for y := h / 8; y < h; y += h / 8 {
		hline(img, 0, w, y, grid)
	}
	for x := w / 10; x < w; x += w / 10 {
		vline(img, x, 0, h, grid)
	}

	hs := fnv.New64a()
	hs.Write([]byte(symbol + "|" + interval))
	seed := hs.Sum64()
	next := func() float64 { // xorshift: deterministic per symbol and interval
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return float64(seed%10000)/10000 - 0.5
	}
	n := min(max(w/10, 20), 150)
	type bar struct{ o, hi, lo, c float64 }
	bars := make([]bar, n)
	p := 100.0
	lo, hi := math.MaxFloat64, -math.MaxFloat64
	for i := range bars {
		o := p
		c := o * (1 + next()*0.04)
		bars[i] = bar{o, math.Max(o, c) * (1 + math.Abs(next())*0.02), math.Min(o, c) * (1 - math.Abs(next())*0.02), c}
		lo, hi = math.Min(lo, bars[i].lo), math.Max(hi, bars[i].hi)
		p = c
	}
	top, bottom := h/10, h-h/10
	y := func(v float64) int { return bottom - int((v-lo)/(hi-lo)*float64(bottom-top)) }
	step := float64(w-20) / float64(n)
	for i, b := range bars {
		x := 10 + int(float64(i)*step+step/2)
		col := up
		if b.c < b.o {
			col = down
		}
		switch style {
		case "line", "area", "baseline":
			if i > 0 {
				line(img, 10+int(float64(i-1)*step+step/2), y(bars[i-1].c), x, y(b.c), color.RGBA{41, 98, 255, 255})
			}
		default:
			vline(img, x, y(b.hi), y(b.lo), col)
			half := max(int(step/3), 1)
			y0, y1 := y(math.Max(b.o, b.c)), y(math.Min(b.o, b.c))
			for xx := x - half; xx <= x+half; xx++ {
				if style == "hollowCandle" && xx != x-half && xx != x+half && b.c >= b.o {
					hline(img, xx, xx+1, y0, col)
					hline(img, xx, xx+1, y1, col)
					continue
				}
				vline(img, xx, y0, y1, col)
			}
		}
	}
	// one moving-average-like line per study, so studies are visible
	for s := 0; s < studies && s < 5; s++ {
		win := 5 + 5*s
		prevX, prevY := -1, -1
		for i := win; i < n; i++ {
			sum := 0.0
			for k := i - win; k < i; k++ {
				sum += bars[k].c
			}
			x, yy := 10+int(float64(i)*step+step/2), y(sum/float64(win))
			if prevX >= 0 {
				line(img, prevX, prevY, x, yy, color.RGBA{uint8(255 - 40*s), uint8(109 + 30*s), 0, 255})
			}
			prevX, prevY = x, yy
		}
	}
	var buf bytes.Buffer
	var err error
	if format == "jpeg" {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	return buf.Bytes(), err
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := x0; x < x1; x++ {
		img.SetRGBA(x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	for y := y0; y <= y1; y++ {
		img.SetRGBA(x, y, c)
	}
}

func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for i := 0; i <= steps; i++ {
		img.SetRGBA(x0+(x1-x0)*i/steps, y0+(y1-y0)*i/steps, c)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
