//go:build ignore

// gensnapshot renders a Slate-like HTML page of the chart-img docs from the facts
// below (docs as of Nov 2025: request limits, symbol tables, the v2 advanced-chart
// body, the 92 indicators with their inputs, the 15 drawings, v3, errors). The
// result is the embedded offline snapshot and the parser's test pages.
//
//	go run gensnapshot.go            # writes snapshot.html (also the parser's Nov 2025 test page) and testdata/docs-2023.html
package main

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"strings"
)

// indicators: Name|key;Type;Default;Description|... (no inputs: Name only)
const indicators = `Accumulation/Distribution
Accumulative Swing Index|in_0;Float;10;limit move value (Min: 0.1, Max: 100000)
Advance/Decline|in_0;Integer;10;length (Min: 1, Max: 2000)
Arnaud Legoux Moving Average|in_0;Integer;9;window size (Min: 0, Max: 5000)|in_1;Float;0.85;offset (Min: -100000, Max: 100000)|in_2;Float;6;sigma (Min: -100000, Max: 100000)
Aroon|in_0;Integer;14;length (Min: 1, Max: 2000)
Average Directional Index|in_0;Integer;14;smoothing (Min: -100000, Max: 100000)|in_1;Integer;14;DI length (Min: -100000, Max: 100000)
Average True Range|in_0;Integer;14;length (Min: 1, Max: 2000)
Awesome Oscillator
Balance of Power
Bollinger Bands|in_0;Integer;20;length (Min: 1, Max: 10000)|in_1;Float;2;mult (Min: 0.001, Max: 50)
Bollinger Bands %B|in_0;Integer;20;length (Min: 1, Max: 10000)|in_1;Float;2;mult (Min: 0.001, Max: 50)
Bollinger Bands Width|in_0;Integer;20;length (Min: 1, Max: 10000)|in_1;Float;2;mult (Min: 0.001, Max: 50)
Chaikin Money Flow|in_0;Integer;20;length (Min: 1, Max: 2000)
Chaikin Oscillator|in_0;Integer;3;short (Min: 1, Max: 2000)|in_1;Integer;10;long (Min: 1, Max: 2000)
Chaikin Volatility|periods;Integer;10;periods (Min: 1, Max: 2000)|rocLookback;Integer;10;rate of change lookback (Min: 1, Max: 2000)
Chande Kroll Stop|in_0;Integer;10;p (Min: 1, Max: 4999)|in_1;Integer;1;x (Min: 1, Max: 1000000)|in_2;Integer;9;q (Min: 1, Max: 1000000)
Chande Momentum Oscillator|in_0;Integer;9;length (Min: 1, Max: 2000)
Chop Zone
Choppiness Index|in_0;Integer;14;length (Min: 1, Max: 1000)
Commodity Channel Index|in_0;Integer;20;length (Min: 1, Max: 2000)|smoothingLine;String;SMA;smoothing line [SMA, EMA, WMA]|smoothingLength;Integer;20;smoothing length (Min: 1, Max: 10000)
Connors RSI|in_0;Integer;3;RSI length (Min: 1, Max: 10000)|in_1;Integer;2;up/down length (Min: 1, Max: 10000)|in_2;Integer;100;ROC length (Min: 1, Max: 10000)
Coppock Curve|in_0;Integer;10;WMA length (Min: -10000, Max: 5000)|in_1;Integer;14;long ROC ength (Min: 1, Max: 4999)|in_2;Integer;11;short ROC length (Min: 1, Max: 4999)
Detrended Price Oscillator|in_0;Integer;21;period (Min: 1, Max: 100000)|in_1;Boolean;false;is centered
Directional Movement|in_0;Integer;14;DI length (Min: 1, Max: 2000)|in_1;Integer;14;ADX smoothing (Min: 1, Max: 50)
Donchian Channels|in_0;Integer;20;length (Min: 1, Max: 2000)
Double EMA|in_0;Integer;9;length (Min: 1, Max: 10000)
Ease of Movement|in_0;Integer;10000;divisor (Min: 1, Max: 1000000000)|in_1;Integer;14;length (Min: 1, Max: 2000)
Elder's Force Index|in_0;Integer;13;length (Min: 1, Max: 2000)
Envelopes|in_0;Integer;20;length (Min: 1, Max: 2000)|in_1;Float;2;upper percentage (Min: 1, Max: 2000)|in_2;Float;2;lower percentage (Min: 1, Max: 2000)|in_3;String;Simple;method [Simple, Exponential, Weighted]|in_4;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]
Fisher Transform|in_0;Integer;9;length (Min: 1, Max: 10000)
Historical Volatility|in_0;Integer;10;length (Min: 1, Max: 100000)
Hull Moving Average|in_0;Integer;9;length (Min: 1, Max: 10000)
Ichimoku Cloud|in_0;Integer;9;conversion line periods (Min: 1, Max: 100000)|in_1;Integer;26;base line periods (Min: 1, Max: 100000)|in_2;Integer;52;leading span B (Min: 1, Max: 100000)|in_3;Integer;26;lagging span (Min: 1, Max: 100000)
Keltner Channels|in_0;Boolean;true;use true range|in_1;Integer;20;length (Min: 1, Max: 2000)|in_2;Integer;1;mult (Min: -100000, Max: 100000)
Klinger Oscillator
Know Sure Thing|in_0;Integer;10;roclen1 (Min: 1, Max: 2000)|in_1;Integer;15;roclen2 (Min: 1, Max: 2000)|in_2;Integer;20;roclen3 (Min: 1, Max: 2000)|in_3;Integer;30;roclen4 (Min: 1, Max: 2000)|in_4;Integer;10;smalen1 (Min: 1, Max: 2000)|in_5;Integer;10;smalen2 (Min: 1, Max: 2000)|in_6;Integer;10;smalen3 (Min: 1, Max: 2000)|in_7;Integer;15;smalen4 (Min: 1, Max: 2000)|in_8;Integer;9;siglen (Min: 1, Max: 2000)
Least Squares Moving Average|in_0;Integer;25;length (Min: 1, Max: 100000)|in_1;Integer;0;offset (Min: -100000, Max: 100000)
Linear Regression Curve|in_0;Integer;9;length (Min: 1, Max: 2000)
Linear Regression Slope|periods;Integer;14;length (Min: 2, Max: 100000)
MA Cross|in_0;Integer;9;short (Min: 1, Max: 2000)|in_1;Integer;26;long (Min: 1, Max: 2000)
MA with EMA Cross|in_0;Integer;10;MA length (Min: 1, Max: 2000)|in_1;Integer;10;EMA length (Min: 1, Max: 2000)
MACD|in_0;Integer;12;fast length (Min: 1, Max: 2000)|in_1;Integer;26;slow length (Min: 1, Max: 2000)|in_2;Integer;9;signal length (Min: 1, Max: 50)|in_3;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]
Majority Rule|rollingPeriod;Integer;14;rolling period (Min: 1, Max: 10000)
Mass Index|in_0;Integer;10;length (Min: 1, Max: 2000)
McGinley Dynamic|in_0;Integer;10;length (Min: 1, Max: 2000)
Momentum|in_0;Integer;10;length (Min: 1, Max: 1000)|in_1;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]
Money Flow Index|in_0;Integer;14;length (Min: 1, Max: 2000)
Moving Average|length;Integer;9;length (Min: 1, Max: 10000)|source;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]|offset;Integer;0;offset (Min: -10000, Max: 10000)|smoothingLine;String;SMA;smoothing line [SMA, EMA, WMA]|smoothingLength;Integer;9;smoothing length (Min: 1, Max: 10000)
Moving Average Adaptive|periods;Integer;10;periods (Min: 2, Max: 10000)
Moving Average Channel|in_0;Integer;20;upper length (Min: 1, Max: 10000)|in_1;Integer;20;lower length (Min: 1, Max: 10000)|in_2;Integer;0;upper offset (Min: -10000, Max: 10000)|in_3;Integer;0;lower offset (Min: -10000, Max: 10000)
Moving Average Double|firstPeriods;Integer;14;1st period (Min: 1, Max: 10000)|secondPeriods;Integer;21;2nd period (Min: 1, Max: 10000)|method;String;Simple;method [Simple, Exponential, Weighted]
Moving Average Exponential|length;Integer;9;length (Min: 1, Max: 10000)|source;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]|offset;Integer;0;offset (Min: -10000, Max: 10000)|smoothingLine;String;SMA;smoothing line [SMA, EMA, WMA]|smoothingLength;Integer;9;smoothing length (Min: 1, Max: 10000)
Moving Average Hamming|periods;Integer;10;Period (Min: 1, Max: 10000)
Moving Average Multiple|firstPeriods;Integer;14;1st period (Min: 1, Max: 10000)|secondPeriods;Integer;21;2nd Period (Min: 1, Max: 10000)|thirdPeriods;Integer;35;3rd Period (Min: 1, Max: 10000)|fourthPeriods;Integer;50;4th Period (Min: 1, Max: 10000)|fifthPeriods;Integer;100;5th Period (Min: 1, Max: 10000)|sixthPeriods;Integer;200;6th Period (Min: 1, Max: 10000)|method;String;Simple;method [Simple, Exponential, Weighted]
Moving Average Triple|firstPeriods;Integer;14;1st period (Min: 1, Max: 10000)|secondPeriods;Integer;21;2nd Period (Min: 1, Max: 10000)|thirdPeriods;Integer;35;3rd Period (Min: 1, Max: 10000)|method;String;Simple;method [Simple, Exponential, Weighted]
Moving Average Weighted|in_0;Integer;9;length (Min: 1, Max: 2000)|in_1;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]|in_2;Integer;0;offset (Min: -10000, Max: 10000)
Net Volume
On Balance Volume|smoothingLine;String;SMA;smoothing line [SMA, EMA, WMA]|smoothingLength;Integer;9;smoothing length (Min: 1, Max: 10000)
Parabolic SAR|in_0;Float;0.02;start (Min: -100000, Max: 100000)|in_1;Float;0.02;increment (Min: -100000, Max: 100000)|in_2;Float;0.2;maximum (Min: -100000, Max: 100000)
Price Channel|in_0;Integer;20;length (Min: 1, Max: 2000)|in_1;Integer;0;offset length (Min: 0, Max: 2000)
Price Oscillator|in_0;Integer;10;shortlen (Min: 1, Max: 2000)|in_1;Integer;21;longlen (Min: 1, Max: 2000)
Price Volume Trend
Rate Of Change|in_0;Integer;9;length (Min: 1, Max: 100000)
Relative Strength Index|length;Integer;14;length (Min: 1, Max: 2000)|smoothingLine;String;SMA;smoothing line [SMA, EMA, WMA]|smoothingLength;Integer;14;smoothing length (Min: 1, Max: 10000)
Relative Vigor Index|in_0;Integer;10;length (Min: 1, Max: 2000)
SMI Ergodic Indicator/Oscillator|in_0;Integer;5;shortlen (Min: 1, Max: 2000)|in_1;Integer;20;longlen (Min: 1, Max: 2000)|in_2;Integer;5;siglen (Min: 1, Max: 2000)
Smoothed Moving Average|in_0;Integer;7;length (Min: 1, Max: 100000)|in_1;String;close;source [open, high, low, close, hl2, hlc3, ohlc4]
Standard Deviation|periods;Integer;5;periods (Min: 1, Max: 100000)|deviations;Integer;1;deviations (Min: -100000, Max: 100000)
Standard Error|length;Integer;14;length (Min: 3, Max: 100000)
Standard Error Bands|periods;Integer;21;period (Min: -100000, Max: 100000)|errors;Float;2;standard errors (Min: -100000, Max: 100000)|method;String;Simple;method [Simple, Exponential, Weighted]|averagePeriods;Integer;3;average periods (Min: 1, Max: 100000)
Stochastic|in_0;Integer;14;K (Min: 1, Max: 10000)|in_1;Integer;1;D (Min: 1, Max: 10000)|in_2;Integer;3;smooth (Min: 1, Max: 10000)
Stochastic RSI|in_0;Integer;14;length RSI (Min: 1, Max: 10000)|in_1;Integer;14;length Stoch (Min: 1, Max: 10000)|in_2;Integer;3;smooth K (Min: 1, Max: 10000)|in_3;Integer;3;smooth D (Min: 1, Max: 10000)
Super Trend|in_0;Integer;10;length (Min: 1, Max: 100)|in_1;Integer;3;factor (Min: 1, Max: 100)
Trend Strength Index|periods;Integer;9;periods (Min: 2, Max: 100000)
Triple EMA|in_0;Integer;9;length (Min: 1, Max: 10000)
TRIX|in_0;Integer;18;length (Min: 1, Max: 2000)
True Strength Index|in_0;Integer;25;long (Min: 1, Max: 4999)|in_1;Integer;13;short (Min: 1, Max: 4999)|in_2;Integer;13;siglen (Min: 1, Max: 4999)
Ultimate Oscillator|in_0;Integer;7;length7 (Min: 1, Max: 100000)|in_1;Integer;14;length14 (Min: 1, Max: 100000)|in_2;Integer;28;length28 (Min: 1, Max: 100000)
Volatility Close-to-Close|periods;Integer;10;periods (Min: 2, Max: 100000)|daysPerYear;Integer;252;days per year (Min: 1, Max: 366)
Volatility Index|periods;Integer;10;periods (Min: 2, Max: 10000)|atrMult;Float;3;ATR mul (Min: -10000, Max: 10000)|method;String;Wilder Smoothing;method [Exponential, Wilder Smoothing]
Volatility O-H-L-C|periods;Integer;10;periods (Min: 1, Max: 100000)|marketClosedPercentage;Float;0;market closed percentage (Min: 0, Max: 0.999)|daysPerYear;Integer;252;day per year (Min: 1, Max: 100000)
Volatility Zero Trend Close-to-Close|periods;Integer;10;periods (Min: 1, Max: 10000)|daysPerYear;Integer;252;day per year (Min: 1, Max: 100000)
Volume
Volume Oscillator|in_0;Integer;5;shortlen (Min: 1, Max: 4999)|in_1;Integer;10;longlen (Min: 1, Max: 4999)
Volume Profile Visible Range|rows;Integer;24;row size (Min: 1, Max: 1000000)|volume;String;Up/Down;volume [Up/Down, Total, Delta]|vaVolume;Integer;70;value area volume (Min: 0, Max: 100)
Vortex Indicator|in_0;Integer;14;period (Min: 2, Max: 100000)
VWAP
VWMA|in_0;Integer;20;length (Min: 1, Max: 10000)
Williams %R|in_0;Integer;14;length (Min: 1, Max: 2000)
Williams Alligator|in_0;Integer;21;jaw length (Min: 1, Max: 2000)|in_1;Integer;13;teeth length (Min: 1, Max: 2000)|in_2;Integer;8;lips length (Min: 1, Max: 2000)|in_3;Integer;8;jaw offset (Min: 1, Max: 2000)|in_4;Integer;5;teeth offset (Min: 1, Max: 2000)|in_5;Integer;3;lips offset (Min: 1, Max: 2000)
Williams Fractal|in_0;Integer;2;periods (Min: 2, Max: 100000)
Zig Zag|in_0;Float;5;deviation (Min: 0.001, Max: 100)|in_1;Integer;10;depth (Min: 2, Max: 1000)`

// drawings: Name|key;Type;Required;Description|...
const drawings = `Order Line|text;String;Yes;order line text|quantity;String;Yes;order line quantity|price;Float;No;order line price point
Trend Line|startDatetime;DateTime (ISO8601);Yes;left x-axis start position|startPrice;Float;Yes;left y-axis start position|endDatetime;DateTime (ISO8601);Yes;right x-axis end position|endPrice;Float;Yes;right y-axis end position|text;String;No;label text
Horizontal Line|price;Float;Yes;horizontal line by price|text;String;No;horizontal line text label
Vertical Line|datetime;DateTime (ISO8601);Yes;vertical line by datetime|text;String;No;vertical line text label
Long Position|startDatetime;DateTime (ISO8601);Yes;position area start (based on chart interval)|entryPrice;Float;Yes;long entry price|targetPrice;Float;Yes;long take-profit target price|stopPrice;Float;Yes;long stop-loss price|endDatetime;DateTime (ISO8601);No;positon area end (based on chart interval)
Short Position|startDatetime;DateTime (ISO8601);Yes;position area start (based on chart interval)|entryPrice;Float;Yes;short entry price|targetPrice;Float;Yes;short take-profit target price|stopPrice;Float;Yes;short stop-loss price|endDatetime;DateTime (ISO8601);No;positon area end (based on chart interval)
Fib Retracement|startDatetime;DateTime (ISO8601);Yes;start position x-axis|startPrice;Float;Yes;start position y-axis|endDatetime;DateTime (ISO8601);Yes;end position x-axis|endPrice;Float;Yes;end position y-axis
Date Range|startDatetime;DateTime (ISO8601);Yes;range start position x-axis|startPrice;Float;Yes;range start position y-axis|endDatetime;DateTime (ISO8601);Yes;range end position x-axis|endPrice;Float;Yes;range end position y-axis
Date Price Range|startDatetime;DateTime (ISO8601);Yes;range start position x-axis|startPrice;Float;Yes;range start position y-axis|endDatetime;DateTime (ISO8601);Yes;range end position x-axis|endPrice;Float;Yes;range end position y-axis
Rectangle|startDatetime;DateTime (ISO8601);Yes;left x-axis start position|startPrice;Float;Yes;left y-axis start position|endDatetime;DateTime (ISO8601);Yes;right x-axis end position|endPrice;Float;Yes;right y-axis end position|text;String;No;label text
Arrow Marker|startDatetime;DateTime (ISO8601);Yes;tail of the arrow x-axis|startPrice;Float;Yes;tail of the arrow y-axis|endDatetime;DateTime (ISO8601);Yes;head of the arrow x-axis|endPrice;Float;Yes;head of the arrow y-axis|text;String;No;label text
Arrow Mark Up|datetime;DateTime (ISO8601);Yes;arrow head x-axis|price;Float;Yes;arrow head y-axis|text;String;No;label text
Arrow Mark Down|datetime;DateTime (ISO8601);Yes;arrow head x-axis|price;Float;Yes;arrow head y-axis|text;String;No;label text
Text|datetime;DateTime (ISO8601);Yes;text x-axis start position|price;Float;Yes;text y-axis start position|text;String;Yes;text content
Callout|startDatetime;DateTime (ISO8601);Yes;pin x-axis start position|startPrice;Float;Yes;pin y-axis start position|endDatetime;DateTime (ISO8601);Yes;text x-axis center position|endPrice;Float;Yes;text y-axis center position|text;String;Yes;text content`

// symbol tables: category then rows Name;Country;v2;Example (a subset of each table).
const symbols = `#Crypto Currency
Binance;;✔️;BINANCE:BTCUSDT
Binance US;;✔️;BINANCEUS:BTCUSD
Bitfinex;;✔️;BITFINEX:BTCUSD
Bitstamp;;✔️;BITSTAMP:BTCUSD
Bybit;;✔️;BYBIT:BTCUSDT.P
Coinbase;;✔️;COINBASE:BTCUSD
Gemini;;✔️;GEMINI:BTCUSD
Kraken;;✔️;KRAKEN:BTCUSD
KuCoin;;✔️;KUCOIN:BTCUSDT
OKX;;✔️;OKX:BTCUSDT.P
CRYPTOCAP;;✔️;CRYPTOCAP:TOTAL
#Forex & CFD
FXCM;;✔️;FX:EURUSD
OANDA;;✔️;OANDA:EURUSD
Pepperstone;;✔️;PEPPERSTONE:EURUSD
FOREX.com;;✔️;FOREXCOM:EURUSD
CAPITALCOM;;✔️;CAPITALCOM:EURUSD
#Stocks - North America
NASDAQ;US;✔️;NASDAQ:AAPL
NYSE;US;✔️;NYSE:BABA
NYSE Arca;US;✔️;AMEX:SPY
OTC;US;✔️;OTC:GBTC
TSX;CA;Delayed;TSX:SHOP
#Stocks - Europe
XETR;DE;Delayed;XETR:ADS
LSE;GB;Delayed;LSE:RR.
EURONEXT PARIS;FR;Delayed;EURONEXT:TTE
#Stocks - Asia / Pacific
ASX;AU;Delayed;ASX:PLS
HKEX;HK;Delayed;HKEX:9988
NSE;IN;✔️;NSE:HDFCBANK
BSE;IN;Delayed;BSE:BANKBARODA
TSE;JP;Delayed;TSE:1489
#Futures - North America
CME;US;✔️;CME:BTC1!
CME_MINI;US;✔️;CME_MINI:ES1!
COMEX;US;✔️;COMEX:GC1!
NYMEX;US;✔️;NYMEX:CL1!
CBOT;US;✔️;CBOT:ZN1!
#Indices - North America
SP;US;✔️;SP:SPX
DJ;US;✔️;DJ:DJI
CBOE;US;Delayed;CBOE:VIX
TVC;US;✔️;TVC:DXY
RUSSELL;US;✔️;RUSSELL:RUT
#Bonds - North America
TVC;US;✔️;TVC:US10Y`

// timezones: the advanced-chart "Supported Timezone" table (Timezone;Country;UTC Offset),
// source: doc.chart-img.com › TradingView Snapshot v2 › Advanced Chart, as copied in
// johnpaul-aquino/charttalk .docs/chart-img-raw-documentation (changelog to Nov 26, 2025).
const timezones = `Africa/Cairo;EG;UTC +02:00
Africa/Johannesburg;ZA;UTC +02:00
Africa/Lagos;NG;UTC +01:00
America/Argentina/Buenos_Aires;AR;UTC -03:00
America/Bogota;CO;UTC -05:00
America/Caracas;VE;UTC -04:00
America/Chicago;US;UTC -06:00
America/El_Salvador;SV;UTC -06:00
America/Juneau;US;UTC -09:00
America/Lima;PE;UTC -05:00
America/Los_Angeles;US;UTC -08:00
America/Mexico_City;MX;UTC -06:00
America/New_York;US;UTC -05:00
America/Phoenix;US;UTC -07:00
America/Santiago;CL;UTC -03:00
America/Sao_Paulo;BR;UTC -03:00
America/Toronto;CA;UTC -05:00
America/Vancouver;CA;UTC -08:00
Asia/Almaty;KZ;UTC +06:00
Asia/Ashkhabad;TM;UTC +05:00
Asia/Bahrain;BH;UTC +03:00
Asia/Bangkok;TH;UTC +07:00
Asia/Chongqing;CN;UTC +08:00
Asia/Dubai;AE;UTC +04:00
Asia/Hong_Kong;HK;UTC +08:00
Asia/Ho_Chi_Minh;VN;UTC +07:00
Asia/Jakarta;ID;UTC +07:00
Asia/Jerusalem;IL;UTC +02:00
Asia/Karachi;PK;UTC +05:00
Asia/Kathmandu;NP;UTC +05:45
Asia/Kolkata;IN;UTC +05:30
Asia/Kuwait;KW;UTC +03:00
Asia/Manila;PH;UTC +08:00
Asia/Muscat;OM;UTC +04:00
Asia/Qatar;QA;UTC +03:00
Asia/Riyadh;SA;UTC +03:00
Asia/Seoul;KR;UTC +09:00
Asia/Shanghai;CN;UTC +08:00
Asia/Singapore;SG;UTC +08:00
Asia/Taipei;TW;UTC +08:00
Asia/Tehran;IR;UTC +03:30
Asia/Tokyo;JP;UTC +09:00
Atlantic/Reykjavik;IS;UTC
Australia/ACT;AU;UTC +11:00
Australia/Adelaide;AU;UTC +10:30
Australia/Brisbane;AU;UTC +10:00
Australia/Perth;AU;UTC +08:00
Australia/Sydney;AU;UTC +11:00
Europe/Amsterdam;NL;UTC +01:00
Europe/Athens;GR;UTC +02:00
Europe/Belgrade;RS;UTC +01:00
Europe/Berlin;DE;UTC +01:00
Europe/Bratislava;SK;UTC +01:00
Europe/Brussels;BE;UTC +01:00
Europe/Bucharest;RO;UTC +02:00
Europe/Budapest;HU;UTC +01:00
Europe/Copenhagen;DK;UTC +01:00
Europe/Dublin;IE;UTC
Europe/Helsinki;FI;UTC +02:00
Europe/Istanbul;TR;UTC +03:00
Europe/Lisbon;PT;UTC
Europe/London;GB;UTC
Europe/Luxembourg;LU;UTC +01:00
Europe/Madrid;ES;UTC +01:00
Europe/Malta;MT;UTC +01:00
Europe/Moscow;RU;UTC +03:00
Europe/Oslo;NO;UTC +01:00
Europe/Paris;FR;UTC +01:00
Europe/Riga;LV;UTC +02:00
Europe/Rome;IT;UTC +01:00
Europe/Stockholm;SE;UTC +01:00
Europe/Tallinn;EE;UTC +02:00
Europe/Vilnius;LT;UTC +02:00
Europe/Warsaw;PL;UTC +01:00
Europe/Zurich;CH;UTC +01:00
Pacific/Auckland;NZ;UTC +13:00
Pacific/Chatham;NZ;UTC +13:45
Pacific/Fakaofo;TK;UTC +13:00
Pacific/Honolulu;US;UTC -10:00
Pacific/Norfolk;NF;UTC +12:00
US/Mountain;US;UTC -06:00`

// overrides: each indicator's "Parameter override" table as the docs give it
// (Name|key;Type;Default;Description|...), source: doc.chart-img.com › TradingView
// Chart Indicators, as copied in johnpaul-aquino/charttalk
// .docs/chart-img-raw-documentation. The level values (UpperLimit.value,
// LowerLimit.value, Zero.value, LevelN.value) are where a study's own levels live.
const overrides = `Accumulation/Distribution|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.color;Color;rgb(33,150,243);■
Accumulative Swing Index|ASI.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|ASI.linewidth;Integer;1;(Min: 1, Max: 10)|ASI.color;Color;rgb(33,150,243);■
Advance/Decline|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.color;Color;rgb(33,150,243);■
Arnaud Legoux Moving Average|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.color;Color;rgb(33,150,243);■
Aroon|Upper.visible;Boolean;true;-|Upper.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Upper.linewidth;Integer;1;(Min: 1, Max: 10)|Upper.color;Color;rgb(251,140,0);■|Lower.visible;Boolean;true;-|Lower.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lower.linewidth;Integer;1;(Min: 1, Max: 10)|Lower.color;Color;rgb(33,150,243);■
Average Directional Index|ADX.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|ADX.linewidth;Integer;1;(Min: 1, Max: 10)|ADX.color;Color;rgb(255,82,82);■
Average True Range|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.color;Color;rgb(128,25,34);■
Awesome Oscillator|Plot.plottype;String;histogram;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color.0;Color;rgb(242,54,69);■|Plot.color.1;Color;rgb(8,153,129);■
Balance of Power|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,82,82);■
Bollinger Bands|Median.visible;Boolean;true;-|Median.linewidth;Integer;1;(Min: 1, Max: 10)|Median.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Median.color;Color;rgb(255,109,0);■|Upper.visible;Boolean;true;-|Upper.linewidth;Integer;1;(Min: 1, Max: 10)|Upper.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Upper.color;Color;rgb(33,150,243);■|Lower.visible;Boolean;true;-|Lower.linewidth;Integer;1;(Min: 1, Max: 10)|Lower.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lower.color;Color;rgb(33,150,243);■|Plots Background.visible;Boolean;true;-|Plots Background.color;Color;rgba(33,150,243,0.1);■
Bollinger Bands %B|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(34,171,148);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;1;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;0;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(38,166,154,0.1);■
Bollinger Bands Width|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,109,0);■
Chaikin Money Flow|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(67,160,71);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.color;Color;rgb(120,123,134);■|Zero.value;Integer;0;(Min: -1000000, Max: 1000000)
Chaikin Oscillator|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(236,64,122);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.color;Color;rgb(120,123,134);■|Zero.value;Integer;0;(Min: -1000000, Max: 1000000)
Chaikin Volatility|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(236,64,122);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.color;Color;rgb(120,123,134);■|Zero.value;Integer;0;(Min: -1000000, Max: 1000000)
Chande Kroll Stop|Long.visible;Boolean;true;-|Long.linewidth;Integer;1;(Min: 1, Max: 10)|Long.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Long.color;Color;rgb(33,150,243);■|Short.visible;Boolean;true;-|Short.linewidth;Integer;1;(Min: 1, Max: 10)|Short.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Short.color;Color;rgb(255,109,0);■
Chande Momentum Oscillator|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Chop Zone|Plot.plottype;String;column;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color.0;Color;rgb(38,198,218);■|Plot.color.1;Color;rgb(67,160,71);■|Plot.color.2;Color;rgb(165,214,167);■|Plot.color.3;Color;rgb(8,153,129);■|Plot.color.4;Color;rgb(213,0,0);■|Plot.color.5;Color;rgb(233,30,99);■|Plot.color.6;Color;rgb(255,109,0);■|Plot.color.7;Color;rgb(255,183,77);■|Plot.color.8;Color;rgb(253,216,53);■
Choppiness Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;61.8;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;38.2;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(33,150,243,0.1);■
Commodity Channel Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;100;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;-100;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(33,150,243,0.1);■
Connors RSI|CRSI.linewidth;Integer;1;(Min: 1, Max: 10)|CRSI.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|CRSI.color;Color;rgb(33,150,243);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;70;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;30;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(33,150,243,0.1);■
Coppock Curve|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Detrended Price Oscillator|DPO.linewidth;Integer;1;(Min: 1, Max: 10)|DPO.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|DPO.color;Color;rgb(67,160,71);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.value;Float;0;(Min: -1000000, Max: 1000000)|Zero.color;Color;rgb(120,123,134);■
Directional Movement|+DI.visible;Boolean;true;-|+DI.linewidth;Integer;1;(Min: 1, Max: 10)|+DI.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|+DI.color;Color;rgb(33,150,243);■|-DI.visible;Boolean;true;-|-DI.linewidth;Integer;1;(Min: 1, Max: 10)|-DI.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|-DI.color;Color;rgb(245,0,87);■|DX.visible;Boolean;true;-|DX.linewidth;Integer;1;(Min: 1, Max: 10)|DX.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|DX.color;Color;rgb(255,167,38);■|ADX.visible;Boolean;true;-|ADX.linewidth;Integer;1;(Min: 1, Max: 10)|ADX.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|ADX.color;Color;rgb(245,0,87);■|ADXR.visible;Boolean;true;-|ADXR.linewidth;Integer;1;(Min: 1, Max: 10)|ADXR.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|ADXR.color;Color;rgb(171,71,188);■
Donchian Channels|Lower.visible;Boolean;true;-|Lower.linewidth;Integer;1;(Min: 1, Max: 10)|Lower.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lower.color;Color;rgb(33,150,243);■|Upper.visible;Boolean;true;-|Upper.linewidth;Integer;1;(Min: 1, Max: 10)|Upper.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Upper.color;Color;rgb(33,150,243);■|Basis.visible;Boolean;true;-|Basis.linewidth;Integer;1;(Min: 1, Max: 10)|Basis.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Basis.color;Color;rgb(255,109,0);■|Plots Background.visible;Boolean;true;-|Plots Background.color;Color;rgba(33,150,243,0.1);■
Double EMA|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(67,160,71);■
Ease of Movement|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(67,160,71);■
Elder's Force Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(242,54,69);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.value;Float;0;(Min: -1000000, Max: 1000000)|Zero.color;Color;rgb(120,123,134);■
Envelopes|Average.visible;Boolean;true;-|Average.linewidth;Integer;1;(Min: 1, Max: 10)|Average.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Average.color;Color;rgb(255,109,0);■|Upper.visible;Boolean;true;-|Upper.linewidth;Integer;1;(Min: 1, Max: 10)|Upper.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Upper.color;Color;rgb(33,150,243);■|Lower.visible;Boolean;true;-|Lower.linewidth;Integer;1;(Min: 1, Max: 10)|Lower.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lower.color;Color;rgb(33,150,243);■|Plots Background.visible;Boolean;true;-|Plots Background.color;Color;rgba(33,150,243,0.1);■
Fisher Transform|Fisher.visible;Boolean;true;-|Fisher.linewidth;Integer;1;(Min: 1, Max: 10)|Fisher.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Fisher.color;Color;rgb(33,150,243);■|Trigger.visible;Boolean;true;-|Trigger.linewidth;Integer;1;(Min: 1, Max: 10)|Trigger.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Trigger.color;Color;rgb(255,109,0);■|Level0.visible;Boolean;true;-|Level0.linestyle;Integer;2;(Min: 0, Max: 2)|Level0.linewidth;Integer;1;(Min: 1, Max: 10)|Level0.value;Float;1.5;(Min: -1000000, Max: 1000000)|Level0.color;Color;rgb(233,30,99);■|Level1.visible;Boolean;true;-|Level1.linestyle;Integer;2;(Min: 0, Max: 2)|Level1.linewidth;Integer;1;(Min: 1, Max: 10)|Level1.value;Float;0.75;(Min: -1000000, Max: 1000000)|Level1.color;Color;rgb(120,123,134);■|Level2.visible;Boolean;true;-|Level2.linestyle;Integer;2;(Min: 0, Max: 2)|Level2.linewidth;Integer;1;(Min: 1, Max: 10)|Level2.value;Float;0;(Min: -1000000, Max: 1000000)|Level2.color;Color;rgb(233,30,99);■|Level3.visible;Boolean;true;-|Level3.linestyle;Integer;2;(Min: 0, Max: 2)|Level3.linewidth;Integer;1;(Min: 1, Max: 10)|Level3.value;Float;-0.75;(Min: -1000000, Max: 1000000)|Level3.color;Color;rgb(120,123,134);■|Level4.visible;Boolean;true;-|Level4.linestyle;Integer;2;(Min: 0, Max: 2)|Level4.linewidth;Integer;1;(Min: 1, Max: 10)|Level4.value;Float;-1.5;(Min: -1000000, Max: 1000000)|Level4.color;Color;rgb(233,30,99);■
Historical Volatility|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Hull Moving Average|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Ichimoku Cloud|ConversionLine.visible;Boolean;true;-|ConversionLine.linewidth;Integer;1;(Min: 1, Max: 10)|ConversionLine.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|ConversionLine.color;Color;rgb(33,150,243);■|BaseLine.visible;Boolean;true;-|BaseLine.linewidth;Integer;1;(Min: 1, Max: 10)|BaseLine.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|BaseLine.color;Color;rgb(128,25,34);■|LaggingSpan.visible;Boolean;true;-|LaggingSpan.linewidth;Integer;1;(Min: 1, Max: 10)|LaggingSpan.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|LaggingSpan.color;Color;rgb(67,160,71);■|LeadingSpanA.visible;Boolean;true;-|LeadingSpanA.linewidth;Integer;1;(Min: 1, Max: 10)|LeadingSpanA.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|LeadingSpanA.color;Color;rgb(165,214,167);■|LeadingSpanB.visible;Boolean;true;-|LeadingSpanB.linewidth;Integer;1;(Min: 1, Max: 10)|LeadingSpanB.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|LeadingSpanB.color;Color;rgb(250,161,164);■|Plots Background.visible;Boolean;true;-|Plots Background.transparency;Integer;90;plots background opacity (Min: 0, Max: 100)
Keltner Channels|Upper.visible;Boolean;true;-|Upper.linewidth;Integer;1;(Min: 1, Max: 10)|Upper.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Upper.color;Color;rgb(33,150,243);■|Middle.visible;Boolean;true;-|Middle.linewidth;Integer;1;(Min: 1, Max: 10)|Middle.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Middle.color;Color;rgb(33,150,243);■|Lower.visible;Boolean;true;-|Lower.linewidth;Integer;1;(Min: 1, Max: 10)|Lower.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lower.color;Color;rgb(33,150,243);■|Plots Background.visible;Boolean;true;-|Plots Background.color;Color;rgba(33,150,243,0.1);■
Klinger Oscillator|Plot.visible;Boolean;true;-|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■|Signal.visible;Boolean;true;-|Signal.linewidth;Integer;1;(Min: 1, Max: 10)|Signal.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Signal.color;Color;rgb(67,160,71);■
Know Sure Thing|KST.visible;Boolean;true;-|KST.linewidth;Integer;1;(Min: 1, Max: 10)|KST.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|KST.color;Color;rgb(8,153,129);■|Signal.visible;Boolean;true;-|Signal.linewidth;Integer;1;(Min: 1, Max: 10)|Signal.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Signal.color;Color;rgb(242,54,69);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.value;Float;0;(Min: -1000000, Max: 1000000)|Zero.color;Color;rgb(120,123,134);■
Least Squares Moving Average|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Linear Regression Curve|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Linear Regression Slope|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,82,82);■
MA Cross|PlotShort.visible;Boolean;true;-|PlotShort.linewidth;Integer;1;(Min: 1, Max: 10)|PlotShort.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|PlotShort.color;Color;rgb(67,160,71);■|PlotLong.visible;Boolean;true;-|PlotLong.linewidth;Integer;1;(Min: 1, Max: 10)|PlotLong.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|PlotLong.color;Color;rgb(255,109,0);■|PlotCrosses.visible;Boolean;true;-|PlotCrosses.linewidth;Integer;4;(Min: 1, Max: 10)|PlotCrosses.plottype;String;cross;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|PlotCrosses.color;Color;rgb(33,150,243);■
MA with EMA Cross|MA.visible;Boolean;true;-|MA.linewidth;Integer;1;(Min: 1, Max: 10)|MA.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|MA.color;Color;rgb(255,109,0);■|EMA.visible;Boolean;true;-|EMA.linewidth;Integer;1;(Min: 1, Max: 10)|EMA.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|EMA.color;Color;rgb(67,160,71);■|Crosses.visible;Boolean;true;-|Crosses.linewidth;Integer;4;(Min: 1, Max: 10)|Crosses.plottype;String;cross;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Crosses.color;Color;rgb(33,150,243);■
MACD|Histogram.visible;Boolean;true;-|Histogram.plottype;String;column;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Histogram.color.0;Color;rgb(34,171,148);■|Histogram.color.1;Color;rgb(172,229,220);■|Histogram.color.2;Color;rgb(252,203,205);■|Histogram.color.3;Color;rgb(255,82,82);■|MACD.visible;Boolean;true;-|MACD.linewidth;Integer;1;(Min: 1, Max: 10)|MACD.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|MACD.color;Color;rgb(33,150,243);■|Signal.visible;Boolean;true;-|Signal.linewidth;Integer;1;(Min: 1, Max: 10)|Signal.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Signal.color;Color;rgb(255,109,0);■
Majority Rule|Majority Rule.linewidth;Integer;1;(Min: 1, Max: 10)|Majority Rule.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Majority Rule.color;Color;rgb(255,82,82);■
Mass Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
McGinley Dynamic|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Momentum|Mom.linewidth;Integer;1;(Min: 1, Max: 10)|Mom.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Mom.color;Color;rgb(33,150,243);■
Money Flow Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(126,87,194);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;80;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;80;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgb(126,87,194);■
Moving Average|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Moving Average Adaptive|Plot 1.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 1.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 1.color;Color;rgb(171,71,188);■
Moving Average Channel|Upper.visible;Boolean;true;-|Upper.linewidth;Integer;1;(Min: 1, Max: 10)|Upper.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Upper.color;Color;rgb(33,150,243);■|Lower.visible;Boolean;true;-|Lower.linewidth;Integer;1;(Min: 1, Max: 10)|Lower.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lower.color;Color;rgb(255,109,0);■|Plots Background.visible;Boolean;true;-|Plots Background.color;Color;rgba(33,150,243,0.1);■
Moving Average Double|Plot 1.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 1.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 1.color;Color;rgb(255,109,0);■|Plot 2.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 2.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 2.color;Color;rgb(33,150,243);■
Moving Average Exponential|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Moving Average Hamming|Plot 1.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 1.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 1.color;Color;rgb(76,175,80);■
Moving Average Multiple|Plot 1.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 1.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 1.color;Color;rgb(156,39,176);■|Plot 2.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 2.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 2.color;Color;rgb(255,109,0);■|Plot 3.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 3.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 3.color;Color;rgb(67,160,71);■|Plot 4.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 4.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 4.color;Color;rgb(38,198,218);■|Plot 5.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 5.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 5.color;Color;rgb(245,0,87);■|Plot 6.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 6.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 6.color;Color;rgb(33,150,243);■
Moving Average Triple|Plot 1.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 1.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 1.color;Color;rgb(255,109,0);■|Plot 2.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 2.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 2.color;Color;rgb(33,150,243);■|Plot 3.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 3.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 3.color;Color;rgb(38,198,218);■
Moving Average Weighted|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Net Volume|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
On Balance Volume|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Parabolic SAR|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;cross;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Price Channel|Highprice Line.visible;Boolean;true;-|Highprice Line.linewidth;Integer;1;(Min: 1, Max: 10)|Highprice Line.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Highprice Line.color;Color;rgb(245,0,87);■|Lowprice Line.visible;Boolean;true;-|Lowprice Line.linewidth;Integer;1;(Min: 1, Max: 10)|Lowprice Line.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lowprice Line.color;Color;rgb(245,0,87);■|Centerprice Line.visible;Boolean;true;-|Centerprice Line.linewidth;Integer;1;(Min: 1, Max: 10)|Centerprice Line.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Centerprice Line.color;Color;rgb(33,150,243);■
Price Oscillator|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(8,153,129);■
Price Volume Trend|PVT.linewidth;Integer;1;(Min: 1, Max: 10)|PVT.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|PVT.color;Color;rgb(33,150,243);■
Rate Of Change|ROC.linewidth;Integer;1;(Min: 1, Max: 10)|ROC.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|ROC.color;Color;rgb(33,150,243);■|Zero Line.visible;Boolean;true;-|Zero Line.linestyle;Integer;2;(Min: 0, Max: 2)|Zero Line.linewidth;Integer;1;(Min: 1, Max: 10)|Zero Line.value;Float;0;(Min: -1000000, Max: 1000000)|Zero Line.color;Color;rgb(120,123,134);■
Relative Strength Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(126,87,194);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;70;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;30;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(126,87,194,0.1);■
Relative Vigor Index|RVGI.visible;Boolean;true;-|RVGI.linewidth;Integer;1;(Min: 1, Max: 10)|RVGI.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|RVGI.color;Color;rgb(8,153,129);■|Signal.visible;Boolean;true;-|Signal.linewidth;Integer;1;(Min: 1, Max: 10)|Signal.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Signal.color;Color;rgb(242,54,69);■
SMI Ergodic Indicator/Oscillator|Indicator.visible;Boolean;true;-|Indicator.linewidth;Integer;1;(Min: 1, Max: 10)|Indicator.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Indicator.color;Color;rgb(33,150,243);■|Signal.visible;Boolean;true;-|Signal.linewidth;Integer;1;(Min: 1, Max: 10)|Signal.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Signal.color;Color;rgb(255,109,0);■|Oscillator.visible;Boolean;true;-|Oscillator.linewidth;Integer;1;(Min: 1, Max: 10)|Oscillator.plottype;String;histogram;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Oscillator.color;Color;rgb(255,82,82);■
Smoothed Moving Average|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(103,58,183);■
Standard Deviation|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(8,153,129);■
Standard Error|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,109,0);■
Standard Error Bands|Plot 1.visible;Boolean;true;-|Plot 1.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 1.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 1.color;Color;rgb(33,150,243);■|Plot 2.visible;Boolean;true;-|Plot 2.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 2.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 2.color;Color;rgb(255,109,0);■|Plot 3.visible;Boolean;true;-|Plot 3.linewidth;Integer;1;(Min: 1, Max: 10)|Plot 3.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot 3.color;Color;rgb(33,150,243);■|Background.visible;Boolean;true;-|Background.color;Color;rgba(33,150,243,0.1);■
Stochastic|%K.visible;Boolean;true;-|%K.linewidth;Integer;1;(Min: 1, Max: 10)|%K.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|%K.color;Color;rgb(33,150,243);■|%D.visible;Boolean;true;-|%D.linewidth;Integer;1;(Min: 1, Max: 10)|%D.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|%D.color;Color;rgb(255,109,0);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;70;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;20;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(33,150,243,0.1);■
Stochastic RSI|%K.visible;Boolean;true;-|%K.linewidth;Integer;1;(Min: 1, Max: 10)|%K.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|%K.color;Color;rgb(33,150,243);■|%D.visible;Boolean;true;-|%D.linewidth;Integer;1;(Min: 1, Max: 10)|%D.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|%D.color;Color;rgb(255,109,0);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;80;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|LowerLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;20;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(33,150,243,0.1);■
Super Trend|SuperTrend.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|SuperTrend.color.0;Color;rgb(0,128,0);■|SuperTrend.color.1;Color;rgb(128,0,0);■
Trend Strength Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,82,82);■
Triple EMA|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
TRIX|TRIX.linewidth;Integer;1;(Min: 1, Max: 10)|TRIX.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|TRIX.color;Color;rgb(242,54,69);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.value;Float;0;(Min: -1000000, Max: 1000000)|Zero.color;Color;rgb(120,123,134);■
True Strength Index|True Strength Index.visible;Boolean;true;-|True Strength Index.linewidth;Integer;1;(Min: 1, Max: 10)|True Strength Index.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|True Strength Index.color;Color2196F3;rgb(33,150,243);■|Signal.visible;Boolean;true;-|Signal.linewidth;Integer;1;(Min: 1, Max: 10)|Signal.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Signal.color;Color2196F3;rgb(233,30,99);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.value;Float;0;(Min: -1000000, Max: 1000000)|Zero.color;Color;rgb(120,123,134);■
Ultimate Oscillator|UO.linewidth;Integer;1;(Min: 1, Max: 10)|UO.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|UO.color;Color;rgb(242,54,69);■
Volatility Close-to-Close|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Volatility Index|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,82,82);■
Volatility O-H-L-C|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(255,82,82);■
Volatility Zero Trend Close-to-Close|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Volume|Volume.plottype;String;column;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Volume.color.0;Color;rgba(247,82,95,0.5);■|Volume.color.1;Color;rgba(34,171,148,0.5);■
Volume Oscillator|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■|Zero.visible;Boolean;true;-|Zero.linestyle;Integer;2;(Min: 0, Max: 2)|Zero.linewidth;Integer;1;(Min: 1, Max: 10)|Zero.value;Float;0;(Min: -1000000, Max: 1000000)|Zero.color;Color;rgb(120,123,134);■
Volume Profile Visible Range|graphics.hhists.histBars2.direction;String;right_to_left;[right_to_left, left_to_right]|graphics.hhists.histBars2.percentWidth;Integer;30;(Min: 1, Max: 10000)|graphics.hhists.histBars2.colors.0;Color;rgba(21,146,230,0.3);■|graphics.hhists.histBars2.colors.1;Color;rgba(251,193,35,0.3);■|graphics.hhists.histBarsVA.direction;String;right_to_left;[right_to_left, left_to_right]|graphics.hhists.histBarsVA.percentWidth;Integer;30;(Min: 1, Max: 10000)|graphics.hhists.histBarsVA.colors.0;Color;rgba(21,146,230,0.7);■|graphics.hhists.histBarsVA.colors.1;Color;rgba(251,193,35,0.7);■|graphics.horizlines.pocLines.visible;Boolean;true;-|graphics.horizlines.pocLines.style;Integer;0;(Min: 0, Max: 2)|graphics.horizlines.pocLines.width;Integer;2;(Min: 1, Max: 10)|graphics.horizlines.pocLines.color;Color;rgb(255,0,0);■|Developing Poc.display;Boolean;false;-|Developing Poc.linewidth;Integer;1;(Min: 1, Max: 10)|Developing Poc.plottype;String;step_line_with_breaks;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Developing Poc.color;Color;rgb(255,0,0);■|Developing VA High.display;Boolean;false;-|Developing VA High.linewidth;Integer;1;(Min: 1, Max: 10)|Developing VA High.plottype;String;step_line_with_breaks;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Developing VA High.color;Color;rgb(0,0,255);■|Developing VA Low.display;Boolean;false;-|Developing VA Low.linewidth;Integer;1;(Min: 1, Max: 10)|Developing VA Low.plottype;String;step_line_with_breaks;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Developing VA Low.color;Color;rgb(0,0,255);■
Vortex Indicator|VI +.visible;Boolean;true;-|VI +.linewidth;Integer;1;(Min: 1, Max: 10)|VI +.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|VI +.color;Color;rgb(33,150,243);■|VI -.visible;Boolean;true;-|VI -.linewidth;Integer;1;(Min: 1, Max: 10)|VI -.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|VI -.color;Color;rgb(233,30,99);■
VWAP|VWAP.linewidth;Integer;1;(Min: 1, Max: 10)|VWAP.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|VWAP.color;Color;rgb(33,150,243);■
VWMA|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■
Williams %R|Plot.linewidth;Integer;1;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(126,87,194);■|UpperLimit.visible;Boolean;true;-|UpperLimit.linestyle;Integer;2;(Min: 0, Max: 2)|UpperLimit.linewidth;Integer;1;(Min: 1, Max: 10)|UpperLimit.value;Float;-20;(Min: -1000000, Max: 1000000)|UpperLimit.color;Color;rgb(120,123,134);■|UpperLimit.visible;Boolean;true;-|LowerLimit.linestyle;Integer;2;(Min: 0, Max: 2)|LowerLimit.linewidth;Integer;1;(Min: 1, Max: 10)|LowerLimit.value;Float;-80;(Min: -1000000, Max: 1000000)|LowerLimit.color;Color;rgb(120,123,134);■|Hlines Background.visible;Boolean;true;-|Hlines Background.color;Color;rgba(126,87,194,0.1);■
Williams Alligator|Jaw.visible;Boolean;true;-|Jaw.linewidth;Integer;1;(Min: 1, Max: 10)|Jaw.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Jaw.color;Color;rgb(33,150,243);■|Teeth.visible;Boolean;true;-|Teeth.linewidth;Integer;1;(Min: 1, Max: 10)|Teeth.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Teeth.color;Color;rgb(233,30,99);■|Lips.visible;Boolean;true;-|Lips.linewidth;Integer;1;(Min: 1, Max: 10)|Lips.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Lips.color;Color;rgb(102,187,106);■
Williams Fractal|Up fractals.visible;Boolean;true;-|Up fractals.color;Color;rgb(8,153,129);■|Down fractals.visible;Boolean;true;-|Down fractals.color;Color;rgb(242,54,69);■
Zig Zag|Plot.linewidth;Integer;2;(Min: 1, Max: 10)|Plot.plottype;String;line;[line, histogram, cross, area, columns, circles, line_with_breaks, area_with_breaks, step_line, step_line_with_breaks]|Plot.color;Color;rgb(33,150,243);■`

type input struct{ key, typ, def, desc string }

func parseLine(line string) (string, []input) {
	parts := strings.Split(line, "|")
	var ins []input
	for _, p := range parts[1:] {
		f := strings.SplitN(p, ";", 4)
		ins = append(ins, input{f[0], f[1], f[2], f[3]})
	}
	return parts[0], ins
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

type page struct {
	b     strings.Builder
	seen  map[string]int
	older bool // the 2023 layout: no Burst column, BASIC daily 100, no ENTERPRISE
}

// id gives Slate's header ids: the slug, with -2, -3… for repeats.
func (p *page) id(text string) string {
	s := slug(text)
	p.seen[s]++
	if n := p.seen[s]; n > 1 {
		return fmt.Sprintf("%s-%d", s, n)
	}
	return s
}

func (p *page) h(level int, text string) {
	fmt.Fprintf(&p.b, "<h%d id=\"%s\">%s</h%d>\n", level, p.id(text), html.EscapeString(text), level)
}
func (p *page) hid(level int, id, text string) {
	fmt.Fprintf(&p.b, "<h%d id=\"%s\">%s</h%d>\n", level, id, text, level)
}
func (p *page) para(text string) { fmt.Fprintf(&p.b, "<p>%s</p>\n", html.EscapeString(text)) }
func (p *page) code(lang, body string) {
	fmt.Fprintf(&p.b, "<blockquote>\n<p>Request Example:</p>\n</blockquote>\n<pre class=\"highlight %s tab-%s\"><code>%s</code></pre>\n", lang, lang, html.EscapeString(body))
}
func (p *page) table(head []string, rows [][]string) {
	p.b.WriteString("<table><thead>\n<tr>\n")
	for _, h := range head {
		fmt.Fprintf(&p.b, "<th>%s</th>\n", html.EscapeString(h))
	}
	p.b.WriteString("</tr>\n</thead><tbody>\n")
	for _, r := range rows {
		p.b.WriteString("<tr>\n")
		for _, c := range r {
			fmt.Fprintf(&p.b, "<td>%s</td>\n", html.EscapeString(c))
		}
		p.b.WriteString("</tr>\n")
	}
	p.b.WriteString("</tbody></table>\n")
}

func jsonValue(typ, def string) any {
	switch typ {
	case "Integer", "Float":
		var f float64
		fmt.Sscan(def, &f)
		return f
	case "Boolean":
		return def == "true"
	}
	return def
}

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func build(older bool) string {
	p := &page{seen: map[string]int{}, older: older}
	p.b.WriteString(`<!doctype html>
<html><head><meta charset="utf-8"><title>CHART-IMG API Documentation</title></head>
<body class="index" data-languages="[&quot;shell&quot;,&quot;javascript&quot;]">
<div class="toc-wrapper"><ul id="toc" class="toc-list-h1"><li><a href="#introduction" class="toc-h1">Introduction 👋</a></li></ul></div>
<div class="page-wrapper"><div class="dark-box"></div><div class="content">
`)
	p.h(1, "Introduction 👋")
	p.para("Welcome to CHART-IMG developer REST API documentation.")
	p.h(1, "Recent Changes 🕑")
	if !older {
		p.h(2, "Nov 26, 2025")
		p.b.WriteString("<ul><li>Added API v2 intervals 2m, 8h, 2D, and 3D support.</li></ul>\n")
		p.h(2, "Sept 22, 2025")
		p.b.WriteString("<ul><li>Updated Snapshot v2 Advanced Chart override with showVertGrid and showHorzGrid support.</li></ul>\n")
	}
	p.h(2, "Jan 03, 2025")
	p.b.WriteString("<ul><li>Added API v2 custom symbol formula support. eg. (NASDAQ:MARA+NASDAQ:RIOT+NASDAQ:WULF/NASDAQ:MSTR)/10</li></ul>\n")
	p.h(1, "Base API Endpoint 🔗")
	p.para("https://api.chart-img.com")
	p.h(1, "Authentication 🔒")
	p.para("Header x-api-key: YOUR_API_KEY")
	p.h(1, "Request Limit ⚠️")
	p.h(2, "Rate Limit")
	if older {
		p.table([]string{"Plan", "req/sec", "Daily max"}, [][]string{
			{"BASIC", "1", "100"}, {"PRO", "10", "500"}, {"MEGA", "15", "1,000"}, {"ULTRA", "35", "3,000"}})
	} else {
		p.table([]string{"Plan", "req/sec", "Burst", "Daily max"}, [][]string{
			{"BASIC", "1", "3", "50"}, {"PRO", "10", "15", "500"}, {"MEGA", "15", "25", "1,000"},
			{"ULTRA", "35", "50", "3,000"}, {"ENTERPRISE", "35+", "50+", "5,000+"}})
	}
	plans := [][]string{{"BASIC", "800", "600", "Yes", "No"}, {"PRO", "1920", "1080", "No", "No"},
		{"MEGA", "1920", "1600", "No", "No"}, {"ULTRA", "2048", "1920", "No", "Yes"}, {"ENTERPRISE", "2048", "1920", "No", "Yes"}}
	storage := [][]string{{"BASIC", "14"}, {"PRO", "30"}, {"MEGA", "60"}, {"ULTRA", "90"}, {"ENTERPRISE", "120"}}
	params := [][]string{{"BASIC", "3"}, {"PRO", "5"}, {"MEGA", "10"}, {"ULTRA", "25"}, {"ENTERPRISE", "50"}}
	if older {
		plans, storage, params = plans[:4], storage[:4], params[:4]
	}
	p.h(2, "Resolution Limit")
	p.table([]string{"Plan", "Max width", "Max height", "Watermark", "Custom Watermark"}, plans)
	p.h(2, "Storage Limit")
	p.table([]string{"Plan", "Expire days"}, storage)
	p.h(2, "Parameter Limit")
	p.para("Starting API v2, the maximum number of parameter objects per request for studies and drawings will depend on your plan.")
	p.table([]string{"Plan", "Max studies[] + drawings[]"}, params)

	p.h(1, "TradingView Symbols")
	var rows [][]string
	cat := ""
	flush := func() {
		if cat == "" {
			return
		}
		p.h(2, cat)
		if strings.HasPrefix(cat, "Crypto") || strings.HasPrefix(cat, "Forex") {
			var r2 [][]string
			for _, r := range rows {
				r2 = append(r2, []string{r[0], r[2], r[3]})
			}
			p.table([]string{"Name", "API v1/v2", "Example"}, r2)
		} else {
			var r2 [][]string
			for _, r := range rows {
				r2 = append(r2, []string{r[0], r[1], "Limited", r[2], r[3]})
			}
			p.table([]string{"Name", "Country", "API v1", "API v2", "Example"}, r2)
		}
		p.para("Last updated: 2024-02-16")
		rows = nil
	}
	for _, line := range strings.Split(symbols, "\n") {
		if strings.HasPrefix(line, "#") {
			flush()
			cat = line[1:]
			continue
		}
		rows = append(rows, strings.Split(line, ";"))
	}
	flush()

	p.h(1, "TradingView Snapshot v2")
	p.hid(2, "advanced-chart-nbsp", "Advanced Chart&nbsp;")
	p.seen["advanced-chart"]++
	p.para("This endpoint captures TradingView advanced chart image.")
	p.code("json", pretty(map[string]any{"theme": "dark", "interval": "1W", "symbol": "NASDAQ:MSFT",
		"override": map[string]any{"showStudyLastValue": false},
		"studies":  []any{map[string]any{"name": "Volume", "forceOverlay": true}, map[string]any{"name": "MACD", "override": map[string]any{"Signal.linewidth": 2, "Signal.color": "rgb(255,65,129)"}}}}))
	p.code("json", pretty(map[string]any{"symbol": "BINANCE:ETHUSDT", "interval": "4h", "range": map[string]any{"from": "2023-01-20T00:00:00.000Z", "to": "2023-02-12T00:00:00.000Z"}}))
	p.h(3, "HTTP Request")
	p.b.WriteString("<p><code>POST /v2/tradingview/advanced-chart</code></p>\n")
	p.h(3, "Request Body (Optional)")
	intervals := "1m, 3m, 5m, 15m, 30m, 45m, 1h, 2h, 3h, 4h, 6h, 8h, 12h, 1D, 2D, 3D, 1W, 1M, 3M, 6M, 1Y"
	if older {
		intervals = "1m, 3m, 5m, 15m, 30m, 45m, 1h, 2h, 3h, 4h, 1D, 1W, 1M, 3M, 6M, 1Y"
	}
	p.table([]string{"Parameter", "Type", "Default", "Description"}, [][]string{
		{"symbol", "String", "BINANCE:BTCUSDT", "set tradingview symbol EXCHANGE:SYMBOL"},
		{"interval", "String", "1D", "set chart interval* [" + intervals + "] exchange dependent"},
		{"width", "Integer", "800", "set chart image width in pixels (Min: 400)"},
		{"height", "Integer", "600", "set chart image height in pixels (Min: 300)"},
		{"style", "String", "candle", "set chart style [bar, candle, line, area, heikinAshi, hollowCandle, baseline, hiLo, column]"},
		{"theme", "String", "light", "set chart theme color [light, dark]"},
		{"scale", "String", "regular", "set price scale [regular, percent, indexedTo100, logarithmic]"},
		{"session", "String", "regular", "set chart session [regular, extended]"},
		{"timezone", "String", "Etc/UTC", "set chart timezone"},
		{"format", "String", "png", "set chart image format [png, jpeg]"},
		{"range", "String / Object", "-", "set chart range [1D, 5D, 1M, 3M, 6M, 1Y, 5Y, ALL, DTD, WTD, MTD, YTD] or {from, to} override interval"},
		{"override", "Object", "-", "set chart override"},
		{"studies", "Object[]", "-", "set chart indicators"},
		{"drawings", "Object[]", "-", "set chart drawings"},
		{"shiftLeft", "Integer", "-", "shift chart to the left (Min: 1, Max: 1000)"},
		{"shiftRight", "Integer", "-", "shift chart to the right (Min: 1, Max: 1000)"},
		{"watermark", "String", "-", "set custom watermark for ULTRA and ENTERPRISE plans"},
		{"watermarkSize", "Integer", "16", "set watermark text size [16, 32, 64, 128]"},
		{"watermarkOpacity", "Float", "1.0", "set watermark text opacity (Min: 0.1, Max: 1.0)"},
	})
	p.para("If default values are the same, there is no need to include them in the request.")
	if !older {
		p.h(4, "Supported Timezone")
		var tzRows [][]string
		for _, line := range strings.Split(timezones, "\n") {
			tzRows = append(tzRows, strings.Split(line, ";"))
		}
		p.table([]string{"Timezone", "Country", "UTC Offset"}, tzRows)
	}
	p.h(2, "Advanced Chart To Storage")
	p.b.WriteString("<p><code>POST /v2/tradingview/advanced-chart/storage</code></p>\n")
	p.h(3, "Response Body Data")
	p.table([]string{"Parameter", "Type", "Description"}, [][]string{
		{"url", "String", "url of the public chart image"}, {"size", "Integer", "size of the image in bytes"},
		{"etag", "String", "the etag associated with the image upload"}, {"expire", "String", "when the image will be deleted"}})

	p.h(1, "TradingView Chart Styles")
	for _, s := range []string{"Bar", "Candle", "Line", "Area", "Heikin Ashi", "Hollow Candle", "Baseline", "Hi-Lo"} {
		p.h(2, s)
		p.h(3, "Parameter style")
		p.table([]string{"Parameter", "Type", "Default", "Description"}, [][]string{{"x.color", "Color", "rgb(41,98,255)", "■"}})
	}

	ovr := map[string][]input{}
	for _, line := range strings.Split(overrides, "\n") {
		name, ins := parseLine(line)
		ovr[name] = ins
	}
	p.h(1, "TradingView Chart Indicators")
	p.para("TradingView Chart Indicators are intended for use with version 2 Advanced Chart endpoints.")
	for _, line := range strings.Split(indicators, "\n") {
		name, ins := parseLine(line)
		p.h(2, name)
		st := map[string]any{"name": name}
		if len(ins) > 0 {
			in := map[string]any{}
			for _, i := range ins {
				in[i.key] = jsonValue(i.typ, i.def)
			}
			st["input"] = in
		}
		st["override"] = map[string]any{"Plot.linewidth": 1}
		p.code("json", pretty(map[string]any{"height": 300, "theme": "dark", "studies": []any{st}}))
		if len(ins) > 0 {
			p.h(4, "Parameter input")
			var r [][]string
			for _, i := range ins {
				r = append(r, []string{i.key, i.typ, i.def, i.desc})
			}
			p.table([]string{"Parameter", "Type", "Default", "Description"}, r)
		}
		p.h(4, "Parameter override")
		ovRows := [][]string{{"Plot.linewidth", "Integer", "1", "(Min: 1, Max: 10)"}, {"Plot.color", "Color", "rgb(33,150,243)", "■"}}
		if o, ok := ovr[name]; ok && !older {
			ovRows = nil
			for _, i := range o {
				ovRows = append(ovRows, []string{i.key, i.typ, i.def, i.desc})
			}
		}
		p.table([]string{"Parameter", "Type", "Default", "Description"}, ovRows)
		p.para("If default values are the same, there is no need to include them in the request.")
	}

	p.h(1, "TradingView Chart Drawings")
	for _, line := range strings.Split(drawings, "\n") {
		name, ins := parseLine(line)
		if older && name == "Trend Line" {
			continue // added Jan 2025
		}
		p.h(2, name)
		in := map[string]any{}
		for _, i := range ins {
			if i.def == "Yes" {
				switch i.typ {
				case "Float":
					in[i.key] = 20000.0
				case "String":
					in[i.key] = "EXAMPLE"
				default:
					in[i.key] = "2023-01-09T00:00:00.000Z"
				}
			}
		}
		p.code("json", pretty(map[string]any{"height": 400, "theme": "dark", "drawings": []any{map[string]any{"name": name, "input": in}}}))
		p.h(4, "Parameter input")
		var r [][]string
		for _, i := range ins {
			r = append(r, []string{i.key, i.typ, i.def, i.desc})
		}
		p.table([]string{"Parameter", "Type", "Required", "Description"}, r)
		p.h(4, "Parameter zOrder")
		p.table([]string{"Parameter", "Type", "Required", "Description"}, [][]string{{"zOrder", "String", "No", "ensure that the drawing is placed on top or bottom of others [top, bottom]"}})
	}

	p.h(1, "TradingView Snapshot v3")
	p.h(2, "Exchange List")
	p.b.WriteString("<p><code>GET /v3/tradingview/exchange/list</code></p>\n")
	p.h(2, "Exchange Symbols")
	p.b.WriteString("<p><code>GET /v3/tradingview/exchange/&lt;EXCHANGE_ID&gt;</code></p>\n")
	p.h(1, "Errors")
	p.table([]string{"Status", "Type", "Description"}, [][]string{
		{"400", "Bad Request", "invalid JSON format in the request body"}, {"403", "Forbidden", "Could not authenticate the API key"},
		{"404", "Not Found", "Could not find the resource"}, {"409", "Conflict", "session disconnect"},
		{"422", "Not Acceptable", "invalid body parameters"}, {"429", "Too Many Request", "Exceed the usage limit or the rate limit"},
		{"500", "Server Error", "Could not process the request"}, {"504", "Process Timeout", "timeout error"}})
	p.b.WriteString("</div></div>\n</body></html>\n")
	return p.b.String()
}

func main() {
	cur := build(false)
	must(os.WriteFile("snapshot.html", []byte(cur), 0o644))
	must(os.WriteFile("testdata/docs-2023.html", []byte(build(true)), 0o644))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
