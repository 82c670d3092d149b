import LoopEngine

/// libFuzzer entry point: parse arbitrary bytes as a `.loop` file. The parser must report problems, never crash
/// or hang. Build and run with `Scripts/fuzz-parser.sh`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ScenarioParser.parse(text, file: "fuzz.loop")
    return 0
}
