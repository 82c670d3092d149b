import LoopEngine

/// libFuzzer entry point: parse arbitrary bytes as a `.loop` file, the way `loopviz` reads one (UTF-8 checked,
/// then parsed), and render the diagnostics. The parser must report problems, never crash or hang, and its
/// report must be terminal-safe. Build and run with `Scripts/fuzz-parser.sh`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try ScenarioParser.parse(utf8: bytes, file: "fuzz.loop")
    } catch {
        let report = error.description
        let unsafe = report.unicodeScalars.contains { $0 != "\n" && TerminalSafeText.isUnsafe($0) }
        precondition(!unsafe, "a diagnostic reached the terminal raw")
        precondition(error.diagnostics.count <= ScenarioDiagnostics.shownLimit, "diagnostics are capped")
    }
    return 0
}
