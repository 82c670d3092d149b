import LoopEngine
import Testing

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII and accents take one column, CJK, full-width forms and emoji two, combining marks none")
    func columnsPerCharacter() {
        #expect(DisplayWidth.columns("timer") == 5)
        #expect(DisplayWidth.columns("café") == 4)
        #expect(DisplayWidth.columns("cafe\u{301}") == 4)
        #expect(DisplayWidth.columns("界面") == 4)
        #expect(DisplayWidth.columns("ポート") == 6)
        #expect(DisplayWidth.columns("ＡＢ") == 4)
        #expect(DisplayWidth.columns("🙂") == 2)
        #expect(DisplayWidth.columns("●○▶━┄…") == 6)
    }

    @Test("padding counts columns, so a wide name ends where a narrow one does")
    func paddingCountsColumns() {
        #expect(DisplayWidth.padded("界面", to: 6) == "界面  ")
        #expect(DisplayWidth.padded("T", to: 6) == "T     ")
        #expect(DisplayWidth.padded("toolong", to: 3) == "toolong")
    }

    @Test("Chinese punctuation is full-width (two columns); curly quotes and the dash are one, as terminals draw them")
    func chinesePunctuation() {
        #expect(DisplayWidth.columns("，。：；（）") == 12)
        #expect(DisplayWidth.columns("「」、") == 6)
        #expect(DisplayWidth.columns("“常驻线程”") == 10)
        #expect(DisplayWidth.columns("返回了——") == 8)
        #expect(DisplayWidth.columns("运行循环 RunLoop") == 16)
    }
}
