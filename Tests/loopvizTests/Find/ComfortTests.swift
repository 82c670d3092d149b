import Testing

@testable import loopviz

/// `T`, `--theme`, `--reduce-motion`: colours for every eye and a UI that keeps still.
@Suite("palettes and reduced motion")
struct ComfortTests {
    @Test("T cycles standard, colour-blind safe and light, and says which")
    func cycle() {
        var model = UpdateTests.model()
        _ = UpdateTests.press(.character("T"), on: &model)
        #expect(model.theme.palette == .colorblind)
        #expect(
            model.flash
                == StatusMessage(
                    "colours: colour-blind safe (blue and yellow, underlines)",
                    detail: "T again; LOOPVIZ_THEME or --theme at start"))
        _ = UpdateTests.press(.character("T"), on: &model)
        #expect(model.theme.palette == .light && model.flash?.essential == "colours: for a light background")
        _ = UpdateTests.press(.character("T"), on: &model)
        #expect(model.theme.palette == .standard)
    }

    @Test(
        "the colour-blind palette uses no green and underlines what colour alone would tell; light uses no yellow or cyan"
    )
    func palettes() {
        let blind = Glyphs(theme: .init(palette: .colorblind))
        let styles = [blind.callout, blind.activity, blind.sleeping, blind.warning, blind.result, blind.header]
        #expect(!styles.contains { $0.foreground == .green || $0.foreground == .red })
        #expect(blind.warning.underline && blind.result.underline && blind.focusedHeader.underline)
        let light = Glyphs(theme: .init(palette: .light))
        let lightStyles = [
            light.callout, light.activity, light.warning, light.result, light.header, light.focusedHeader,
        ]
        #expect(!lightStyles.contains { $0.foreground == .yellow || $0.foreground == .cyan })
        let standard = Glyphs(theme: .init())
        #expect(standard.callout == Screen.Style(foreground: .green, bold: true))
    }

    @Test("reduced motion plays at most a step a second, and + says so")
    func reducedMotion() {
        var model = UpdateTests.model()
        model.theme.reduceMotion = true
        model.speedIndex = 0
        for _ in 0..<5 { _ = UpdateTests.press(.character("+"), on: &model) }
        #expect(AppModel.speeds[model.speedIndex].label == "1 step/s")
        #expect(model.flash == "--reduce-motion: at most 1 step/s")
    }
}
