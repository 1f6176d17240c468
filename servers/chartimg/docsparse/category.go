package docsparse

// categories is our grouping of the documented indicators; the docs list them
// alphabetically without categories. Unknown names fall into "other".
var categories = map[string]string{
	"Arnaud Legoux Moving Average": "trend", "Double EMA": "trend", "Hull Moving Average": "trend",
	"Ichimoku Cloud": "trend", "Least Squares Moving Average": "trend", "Linear Regression Curve": "trend",
	"Linear Regression Slope": "trend", "MA Cross": "trend", "MA with EMA Cross": "trend", "McGinley Dynamic": "trend",
	"Moving Average": "trend", "Moving Average Adaptive": "trend", "Moving Average Channel": "trend",
	"Moving Average Double": "trend", "Moving Average Exponential": "trend", "Moving Average Hamming": "trend",
	"Moving Average Multiple": "trend", "Moving Average Triple": "trend", "Moving Average Weighted": "trend",
	"Parabolic SAR": "trend", "Smoothed Moving Average": "trend", "Super Trend": "trend", "Triple EMA": "trend",
	"Williams Alligator": "trend", "Zig Zag": "trend", "Aroon": "trend", "Average Directional Index": "trend",
	"Directional Movement": "trend", "Vortex Indicator": "trend", "Chande Kroll Stop": "trend",
	"Trend Strength Index": "trend", "Price Channel": "trend", "Majority Rule": "trend",

	"Awesome Oscillator": "momentum", "Chande Momentum Oscillator": "momentum", "Commodity Channel Index": "momentum",
	"Connors RSI": "momentum", "Coppock Curve": "momentum", "Detrended Price Oscillator": "momentum", "MACD": "momentum",
	"Momentum": "momentum", "Price Oscillator": "momentum", "Rate Of Change": "momentum",
	"Relative Strength Index": "momentum", "Relative Vigor Index": "momentum",
	"SMI Ergodic Indicator/Oscillator": "momentum", "Stochastic": "momentum", "Stochastic RSI": "momentum",
	"TRIX": "momentum", "True Strength Index": "momentum", "Ultimate Oscillator": "momentum", "Williams %R": "momentum",
	"Fisher Transform": "momentum", "Know Sure Thing": "momentum", "Balance of Power": "momentum",

	"Accumulation/Distribution": "volume", "Chaikin Money Flow": "volume", "Chaikin Oscillator": "volume",
	"Ease of Movement": "volume", "Elder's Force Index": "volume", "Klinger Oscillator": "volume",
	"Money Flow Index": "volume", "Net Volume": "volume", "On Balance Volume": "volume", "Price Volume Trend": "volume",
	"Volume": "volume", "Volume Oscillator": "volume", "Volume Profile Visible Range": "volume", "VWAP": "volume",
	"VWMA": "volume", "Advance/Decline": "volume",

	"Average True Range": "volatility", "Bollinger Bands": "volatility", "Bollinger Bands %B": "volatility",
	"Bollinger Bands Width": "volatility", "Chaikin Volatility": "volatility", "Donchian Channels": "volatility",
	"Envelopes": "volatility", "Historical Volatility": "volatility", "Keltner Channels": "volatility",
	"Standard Deviation": "volatility", "Standard Error": "volatility", "Standard Error Bands": "volatility",
	"Volatility Close-to-Close": "volatility", "Volatility Index": "volatility", "Volatility O-H-L-C": "volatility",
	"Volatility Zero Trend Close-to-Close": "volatility", "Choppiness Index": "volatility", "Chop Zone": "volatility",
	"Mass Index": "volatility", "Accumulative Swing Index": "momentum", "Williams Fractal": "trend",
}

func categoryOf(name string) string {
	if c, ok := categories[name]; ok {
		return c
	}
	return "other"
}
