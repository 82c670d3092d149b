import Foundation
import Testing

@testable import loopviz

/// `FILE@N`, `--step N` and `y`: a link to one step.
@Suite("a deep link opens a step")
struct DeepLinkTests {
    @Test("FILE@N is a link only when FILE@N is no file and FILE is one")
    func reading() {
        let files: Set<String> = ["a.loop", "odd@12.loop", "b@3"]
        let exists = { (path: String) in files.contains(path) }
        #expect(DeepLink("a.loop@84", exists: exists) == DeepLink(path: "a.loop", step: 84))
        #expect(DeepLink("odd@12.loop@5", exists: exists) == DeepLink(path: "odd@12.loop", step: 5))
        #expect(DeepLink("b@3", exists: exists) == nil)
        #expect(DeepLink("missing.loop@3", exists: exists) == nil)
        #expect(DeepLink("a.loop@", exists: exists) == nil)
        #expect(DeepLink("a.loop@-1", exists: exists) == nil)
        #expect(DeepLink("a.loop@1e3", exists: exists) == nil)
        #expect(DeepLink("@3", exists: exists) == nil)
    }

    @Test("the link reads FILE@N when the path needs no quoting, else the path quoted and --step")
    func wording() {
        #expect(DeepLink(path: "examples/14-timer.loop", step: 84).command == "loopviz examples/14-timer.loop@84")
        #expect(DeepLink(path: nil, step: 7).command == "loopviz --step 7")
        #expect(DeepLink(path: "my lesson.loop", step: 2).command == "loopviz 'my lesson.loop' --step 2")
        #expect(DeepLink(path: "it's.loop", step: 2).command == #"loopviz 'it'\''s.loop' --step 2"#)
        #expect(DeepLink(path: "-x.loop", step: 2).command == "loopviz '-x.loop' --step 2")
    }

    @Test("y shows the link of the step on screen in the status bar")
    func showLink() {
        var model = UpdateTests.model()
        model.isPaused = true
        _ = UpdateTests.press(.character("n"), .character("n"), .character("y"), on: &model)
        #expect(model.flash == StatusMessage("loopviz --step 2", detail: "opens the UI at this step"))
        model.fileName = "examples/14-timer-and-tracking-mode.loop"
        _ = UpdateTests.press(.character("y"), on: &model)
        #expect(
            model.flash
                == StatusMessage(
                    "loopviz examples/14-timer-and-tracking-mode.loop@2", detail: "opens the UI at this step"))
        let text = render(model).lines.last ?? ""
        #expect(text.contains("loopviz examples/14-timer-and-tracking-mode.loop@2"))
    }

    @Test("screen FILE@N draws the same screen as screen FILE --step N")
    func screenTakesTheLink() throws {
        let lesson = try String(
            contentsOfFile: LoopvizProcess.packageRoot.path + "/examples/14-timer-and-tracking-mode.loop",
            encoding: .utf8)
        let linked = try LoopvizProcess.run(["screen", "lesson.loop@40"], files: ["lesson.loop": lesson])
        let stepped = try LoopvizProcess.run(["screen", "lesson.loop", "--step", "40"], files: ["lesson.loop": lesson])
        #expect(linked.status == 0 && linked.stderr.isEmpty)
        #expect(linked.stdout == stepped.stdout)
        #expect(linked.stdout.contains("step 40/"))
    }

    @Test("--step with the real clock is refused: a real run is never the same twice")
    func realClockRefused() throws {
        let result = try LoopvizProcess.run(["--clock", "real", "--step", "3"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--step goes with --clock virtual"))
    }
}
