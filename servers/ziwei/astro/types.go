package astro

// Stem is a heavenly stem (天干), 0 = 甲 … 9 = 癸.
type Stem uint8

// The ten heavenly stems.
const (
	StemJia Stem = iota
	StemYi
	StemBing
	StemDing
	StemWu
	StemJi
	StemGeng
	StemXin
	StemRen
	StemGui
)

// Branch is an earthly branch (地支), 0 = 子 … 11 = 亥.
type Branch uint8

// The twelve earthly branches.
const (
	BranchZi Branch = iota
	BranchChou
	BranchYin
	BranchMao
	BranchChen
	BranchSi
	BranchWu
	BranchWei
	BranchShen
	BranchYou
	BranchXu
	BranchHai
)

// Yang reports whether the stem is yang (甲丙戊庚壬).
func (s Stem) Yang() bool { return s%2 == 0 }

// Yang reports whether the branch is yang (子寅辰午申戌).
func (b Branch) Yang() bool { return b%2 == 0 }

// BoardIndex is the palace position of the branch on iztro's board
// (0 = 寅, 1 = 卯 … 10 = 子, 11 = 丑).
func (b Branch) BoardIndex() int { return (int(b) + 10) % 12 }

// BranchOfBoard returns the branch of board position i (0 = 寅).
func BranchOfBoard(i int) Branch { return Branch((i%12 + 14) % 12) }

// GanZhi is a stem-branch pair (干支).
type GanZhi struct {
	Stem   Stem
	Branch Branch
}

// Gender of the chart owner.
type Gender uint8

// Genders.
const (
	Male Gender = iota
	Female
)

// Yang is true for male: iztro treats 男 as 阳 and 女 as 阴.
func (g Gender) Yang() bool { return g == Male }

// StarType is iztro's star type.
type StarType uint8

// Star types, rendered as iztro's type strings.
const (
	TypeMajor StarType = iota
	TypeSoft
	TypeTough
	TypeLucun
	TypeTianma
	TypeAdjective
	TypeFlower
	TypeHelper
)

var starTypeNames = [...]string{"major", "soft", "tough", "lucun", "tianma", "adjective", "flower", "helper"}

// String returns iztro's type string (the same in every language).
func (t StarType) String() string {
	if int(t) < len(starTypeNames) {
		return starTypeNames[t]
	}
	return ""
}

// Brightness (亮度) of a star in a palace. BrightnessNone means the star has none.
type Brightness uint8

// Brightness levels, strongest first.
const (
	BrightnessNone Brightness = iota
	BrightMiao                // 庙 [+3]
	BrightWang                // 旺 [+2]
	BrightDe                  // 得 [+1]
	BrightLi                  // 利 [0]
	BrightPing                // 平 [-1]
	BrightBu                  // 不 [-2]
	BrightXian                // 陷 [-3]
)

// Mutagen is one of the four transformations (四化). MutagenNone means none.
type Mutagen uint8

// The four transformations in iztro's order 禄 权 科 忌.
const (
	MutagenNone Mutagen = iota
	MutagenLu           // 禄 A
	MutagenQuan         // 权 B
	MutagenKe           // 科 C
	MutagenJi           // 忌 D
)

// FiveElementsClass is the five-elements bureau (五行局); its value is the
// bureau number, which is also the nominal age at which the first decade starts.
type FiveElementsClass uint8

// The five bureaus.
const (
	Water2 FiveElementsClass = 2 // 水二局
	Wood3  FiveElementsClass = 3 // 木三局
	Metal4 FiveElementsClass = 4 // 金四局
	Earth5 FiveElementsClass = 5 // 土五局
	Fire6  FiveElementsClass = 6 // 火六局
)

// PalaceRole is the role (宫名) of a palace, counted from the life palace
// counter-clockwise on the board: 命宫, 兄弟, 夫妻, 子女, 财帛, 疾厄, 迁移, 仆役,
// 官禄, 田宅, 福德, 父母.
type PalaceRole uint8

// The twelve palace roles.
const (
	Soul PalaceRole = iota
	Siblings
	Spouse
	Children
	Wealth
	Health
	Surface
	Friends
	Career
	Property
	Spirit
	Parents
)

// roleAt returns the role of board position i when the period's life palace
// is at board position soul.
func roleAt(soul, i int) PalaceRole { return PalaceRole(mod12(soul - i)) }

// boardOfRole returns the board position of role r when the life palace is at soul.
func boardOfRole(soul int, r PalaceRole) int { return mod12(soul - int(r)) }

// PeriodKind names a horoscope period.
type PeriodKind uint8

// Horoscope periods. Childhood is the 童限 before the first decade starts.
const (
	PeriodDecadal PeriodKind = iota
	PeriodChildhood
	PeriodAge
	PeriodYearly
	PeriodMonthly
	PeriodDaily
	PeriodHourly
)

func mod12(i int) int {
	i %= 12
	if i < 0 {
		i += 12
	}
	return i
}

func mod10(i int) int {
	i %= 10
	if i < 0 {
		i += 10
	}
	return i
}
