package astro

// Star placement rules (安星), transcribed as position formulas on the board
// (0 = 寅 … 11 = 丑). They reproduce iztro 2.6.1's "default" algorithm.

// bb is the board position of a branch (fixEarthlyBranchIndex in iztro).
func bb(b Branch) int { return (int(b) + 10) % 12 }

// branchGroup returns the 三合 group of a branch: 0 申子辰, 1 巳酉丑, 2 寅午戌, 3 亥卯未.
func branchGroup(b Branch) int { return int(b) % 4 }

// placement holds what the rules depend on.
type placement struct {
	year GanZhi
	// adjYear is the year of the yearly adjective stars and the 12-god
	// cycles: iztro takes it with horoscopeDivide (the lunar year by
	// default), while the minor stars and 红鸾/天喜 follow yearDivide (year).
	adjYear    GanZhi
	monthIndex int // lunar month - 1, after the fixLeap adjustment (寅 = 0)
	lunarDay   int // calendar lunar day of birth
	monthDays  int // days of the birth lunar month
	timeIndex  int // 0-12
	soul, body int
	five       FiveElementsClass
	zhongzhou  bool // 中州派 (iztro algorithm "zhongzhou")
	female     bool
}

// ziweiIndex finds 紫微 (起紫微星诀): divide the birth day (plus an offset until
// it divides) by the bureau number; the quotient counts from 寅, and the offset
// moves back (odd) or forward (even). At the late Rat hour the next day is
// used, wrapping to day 1 of the same month past the month's end (iztro quirk).
func ziweiIndex(lunarDay, monthDays, timeIndex int, five FiveElementsClass) int {
	day := lunarDay
	if timeIndex == 12 {
		day++
	}
	if day > monthDays {
		day -= monthDays
	}
	f := int(five)
	offset := 0
	for (day+offset)%f != 0 {
		offset++
	}
	q := ((day + offset) / f) % 12
	idx := q - 1
	if offset%2 == 0 {
		idx += offset
	} else {
		idx -= offset
	}
	return mod12(idx)
}

var (
	ziweiGroupOffsets = [...]struct {
		star StarID
		off  int
	}{{ZiWei, 0}, {TianJi, 1}, {TaiYang, 3}, {WuQu, 4}, {TianTong, 5}, {LianZhen, 8}}
	tianfuGroupOffsets = [...]struct {
		star StarID
		off  int
	}{{TianFu, 0}, {TaiYin, 1}, {TanLang, 2}, {JuMen, 3}, {TianXiang, 4}, {TianLiang, 5}, {QiSha, 6}, {PoJun, 10}}
)

// kuiYue: 天魁/天钺 by stem (甲戊庚 丑未, 乙己 子申, 辛 午寅, 丙丁 亥酉, 壬癸 卯巳).
var kuiYue = [10][2]Branch{
	{BranchChou, BranchWei}, {BranchZi, BranchShen}, {BranchHai, BranchYou}, {BranchHai, BranchYou}, {BranchChou, BranchWei},
	{BranchZi, BranchShen}, {BranchChou, BranchWei}, {BranchWu, BranchYin}, {BranchMao, BranchSi}, {BranchMao, BranchSi},
}

// luCun: 禄存 by stem (甲寅 乙卯 丙戊巳 丁己午 庚申 辛酉 壬亥 癸子).
var luCun = [10]Branch{BranchYin, BranchMao, BranchSi, BranchWu, BranchSi, BranchWu, BranchShen, BranchYou, BranchHai, BranchZi}

// tianMa by branch group: 申子辰 寅, 巳酉丑 亥, 寅午戌 申, 亥卯未 巳.
var tianMa = [4]Branch{BranchYin, BranchHai, BranchShen, BranchSi}

// changQuByStem: 流昌/流曲 by stem.
var changQuByStem = [10][2]Branch{
	{BranchSi, BranchYou}, {BranchWu, BranchShen}, {BranchShen, BranchWu}, {BranchYou, BranchSi}, {BranchShen, BranchWu},
	{BranchYou, BranchSi}, {BranchHai, BranchMao}, {BranchZi, BranchYin}, {BranchYin, BranchZi}, {BranchMao, BranchHai},
}

var (
	huoStart     = [4]Branch{BranchYin, BranchMao, BranchChou, BranchYou} // 火星 at 子 hour, by group
	lingStart    = [4]Branch{BranchXu, BranchXu, BranchMao, BranchXu}     // 铃星 at 子 hour, by group
	xianChiPos   = [4]Branch{BranchYou, BranchWu, BranchMao, BranchZi}    // 咸池
	huaGaiPos    = [4]Branch{BranchChen, BranchChou, BranchXu, BranchWei} // 华盖
	jiangqianPos = [4]Branch{BranchZi, BranchYou, BranchWu, BranchMao}    // 将星
	agePos       = [4]Branch{BranchXu, BranchWei, BranchChen, BranchChou} // 小限 age 1
	jieShenPos   = [6]Branch{BranchShen, BranchXu, BranchZi, BranchYin, BranchChen, BranchWu}
	tianWuPos    = [4]Branch{BranchSi, BranchShen, BranchYin, BranchHai}
	yinShaPos    = [6]Branch{BranchYin, BranchZi, BranchXu, BranchShen, BranchWu, BranchChen}
	tianYuePos   = [12]Branch{BranchXu, BranchSi, BranchChen, BranchYin, BranchWei, BranchMao, BranchHai, BranchWei, BranchYin, BranchWu, BranchXu, BranchYin}
	tianGuanPos  = [10]Branch{BranchWei, BranchChen, BranchSi, BranchYin, BranchMao, BranchYou, BranchHai, BranchYou, BranchXu, BranchWu}
	tianFuPos    = [10]Branch{BranchYou, BranchShen, BranchZi, BranchHai, BranchMao, BranchYin, BranchWu, BranchSi, BranchWu, BranchSi}
	tianChuPos   = [10]Branch{BranchSi, BranchWu, BranchZi, BranchSi, BranchWu, BranchShen, BranchYin, BranchWu, BranchYou, BranchHai}
	jieLuPos     = [5]Branch{BranchShen, BranchWu, BranchChen, BranchYin, BranchZi}
	kongWangPos  = [5]Branch{BranchYou, BranchWei, BranchSi, BranchMao, BranchChou}
	// 大耗 (中州派) by the year branch 子…亥: the opposite branch, one on for
	// yang branches and one back for yin ones (iztro getDahaoIndex).
	daHaoPos   = [12]Branch{BranchWei, BranchWu, BranchYou, BranchShen, BranchHai, BranchXu, BranchChou, BranchZi, BranchMao, BranchYin, BranchSi, BranchChen}
	feiLianPos = [12]Branch{BranchShen, BranchYou, BranchXu, BranchSi, BranchWu, BranchWei, BranchYin, BranchMao, BranchChen, BranchHai, BranchZi, BranchChou}
	poSuiPos   = [3]Branch{BranchSi, BranchChou, BranchYou}
	nianJiePos = [12]Branch{BranchXu, BranchYou, BranchShen, BranchWei, BranchWu, BranchSi, BranchChen, BranchMao, BranchYin, BranchChou, BranchZi, BranchHai}
	// 孤辰/寡宿 by season group of the year branch: 寅卯辰, 巳午未, 申酉戌, 亥子丑.
	guChenPos = [4]Branch{BranchSi, BranchShen, BranchHai, BranchYin}
	guaSuPos  = [4]Branch{BranchChou, BranchChen, BranchWei, BranchXu}
	// 长生 start by bureau number (2..6).
	changshengStart = [7]Branch{0, 0, BranchShen, BranchHai, BranchSi, BranchShen, BranchYin}
)

// seasonGroup: 0 寅卯辰, 1 巳午未, 2 申酉戌, 3 亥子丑.
func seasonGroup(b Branch) int { return mod12(int(b)-2) / 3 }

// placeMajor places the 14 major stars: 紫微 by the day and the bureau, its
// group counter-clockwise, 天府 opposite across the 寅-申 axis and its group clockwise.
func (p *placement) placeMajor(pos *[NumStars]int8) {
	zw := ziweiIndex(p.lunarDay, p.monthDays, p.timeIndex, p.five)
	tf := mod12(12 - zw)
	for _, g := range ziweiGroupOffsets {
		pos[g.star] = int8(mod12(zw - g.off))
	}
	for _, g := range tianfuGroupOffsets {
		pos[g.star] = int8(mod12(tf + g.off))
	}
}

// place computes the board position of every natal star.
func (p *placement) place(pos *[NumStars]int8) {
	set := func(s StarID, i int) { pos[s] = int8(mod12(i)) }
	stem, br := p.year.Stem, p.year.Branch
	yb := int(br)
	ft := p.timeIndex % 12
	mi := p.monthIndex

	p.placeMajor(pos)

	// 14 minor stars.
	zuo, you := 2+mi, 8-mi
	chang, qu := 8-ft, 2+ft
	set(ZuoFu, zuo)
	set(YouBi, you)
	set(WenChang, chang)
	set(WenQu, qu)
	set(TianKui, bb(kuiYue[stem][0]))
	set(TianYue, bb(kuiYue[stem][1]))
	lu := bb(luCun[stem])
	set(LuCun, lu)
	set(TianMa, bb(tianMa[branchGroup(br)]))
	set(DiKong, 9-ft)
	set(DiJie, 9+ft)
	set(HuoXing, bb(huoStart[branchGroup(br)])+ft)
	set(LingXing, bb(lingStart[branchGroup(br)])+ft)
	set(QingYang, lu+1)
	set(TuoLuo, lu-1)

	// 38 adjective stars.
	hl := bb(BranchMao) - yb
	set(HongLuan, hl)
	set(TianXi, hl+6)
	stem, br = p.adjYear.Stem, p.adjYear.Branch
	yb = int(br)
	set(TianYao, bb(BranchChou)+mi)
	set(XianChi, bb(xianChiPos[branchGroup(br)]))
	set(JieShen, bb(jieShenPos[mi/2]))
	dayIdx := p.lunarDay - 1
	if p.timeIndex >= 12 {
		dayIdx = p.lunarDay
	}
	set(SanTai, (mod12(zuo)+dayIdx)%12)
	set(BaZuo, (mod12(you)-dayIdx)%12)
	set(EnGuang, (mod12(chang)+dayIdx)%12-1)
	set(TianGui, (mod12(qu)+dayIdx)%12-1)
	set(LongChi, bb(BranchChen)+yb)
	set(FengGe, bb(BranchXu)-yb)
	set(TianCai, p.soul+yb)
	set(TianShou, p.body+yb)
	set(TaiFu, bb(BranchWu)+ft)
	set(FengGao, bb(BranchYin)+ft)
	set(TianWu, bb(tianWuPos[mi%4]))
	set(HuaGai, bb(huaGaiPos[branchGroup(br)]))
	set(TianGuan, bb(tianGuanPos[stem]))
	set(TianFuFortune, bb(tianFuPos[stem]))
	set(TianChu, bb(tianChuPos[stem]))
	set(TianYueMoon, bb(tianYuePos[mi]))
	set(TianDe, bb(BranchYou)+yb)
	set(YueDe, bb(BranchSi)+yb)
	set(TianKong, bb(br)+1)
	xk := mod12(bb(br) + int(StemGui) - int(stem) + 1)
	if yb%2 != xk%2 {
		xk++
	}
	set(XunKong, xk)
	if !p.zhongzhou {
		set(JieLu, bb(jieLuPos[int(stem)%5]))
		set(KongWang, bb(kongWangPos[int(stem)%5]))
		pos[LongDe], pos[JieKong], pos[JieShaAdj], pos[DaHaoAdj] = -1, -1, -1, -1
	} else {
		// 中州派 (iztro adjectiveStar/location): 龙德 where the 岁前 cycle has
		// 龙德; one 截空 (截路's place for a yang year branch, 空亡's for yin);
		// 劫杀 and 大耗 by the year branch.
		pos[JieLu], pos[KongWang] = -1, -1
		set(LongDe, bb(br)+7)
		if yb%2 == 0 {
			set(JieKong, bb(jieLuPos[int(stem)%5]))
		} else {
			set(JieKong, bb(kongWangPos[int(stem)%5]))
		}
		set(JieShaAdj, [4]int{3, 6, 9, 0}[seasonGroupJiesha(br)])
		set(DaHaoAdj, bb(daHaoPos[yb]))
	}
	set(GuChen, bb(guChenPos[seasonGroup(br)]))
	set(GuaSu, bb(guaSuPos[seasonGroup(br)]))
	set(FeiLian, bb(feiLianPos[yb]))
	set(PoSui, bb(poSuiPos[yb%3]))
	set(TianXing, bb(BranchYou)+mi)
	set(YinSha, bb(yinShaPos[mi%6]))
	set(TianKu, bb(BranchWu)-yb)
	set(TianXu, bb(BranchWu)+yb)
	shi, shang := p.soul+7, p.soul+5 // 疾厄, 仆役 (counted clockwise from 命宫 in iztro's PALACES list)
	if p.zhongzhou && (yb%2 == 0) == p.female {
		shi, shang = shang, shi // 中州派: 阴男阳女 swap 天使 and 天伤
	}
	set(TianShi, shi)
	set(TianShang, shang)
	set(NianJie, bb(nianJiePos[yb]))
}

// movingPositions places a period's moving stars (流耀) for its stem and branch.
func movingPositions(stem Stem, br Branch) (pos [numMoving]int8) {
	lu := bb(luCun[stem])
	hl := mod12(bb(BranchMao) - int(br))
	pos[MovKui] = int8(bb(kuiYue[stem][0]))
	pos[MovYue] = int8(bb(kuiYue[stem][1]))
	pos[MovChang] = int8(bb(changQuByStem[stem][0]))
	pos[MovQu] = int8(bb(changQuByStem[stem][1]))
	pos[MovLu] = int8(lu)
	pos[MovYang] = int8(mod12(lu + 1))
	pos[MovTuo] = int8(mod12(lu - 1))
	pos[MovMa] = int8(bb(tianMa[branchGroup(br)]))
	pos[MovLuan] = int8(hl)
	pos[MovXi] = int8(mod12(hl + 6))
	pos[MovNianJie] = int8(bb(nianJiePos[br]))
	return pos
}

// seasonGroupJiesha groups year branches for 劫杀 (中州派): 申子辰 0, 亥卯未 1,
// 寅午戌 2, 巳酉丑 3 (iztro getJieshaAdjIndex gives palace 3, 6, 9, 0).
func seasonGroupJiesha(b Branch) int {
	switch b {
	case BranchShen, BranchZi, BranchChen:
		return 0
	case BranchHai, BranchMao, BranchWei:
		return 1
	case BranchYin, BranchWu, BranchXu:
		return 2
	}
	return 3
}
