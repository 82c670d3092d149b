#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine
import Testing

/// The probe behind docs/cfrunloop.md §11.1: CF walks the common modes in the order of its `CFSet` of their names,
/// and `CommonModeSet` computes that order from the names alone.
@Suite("§11.1 the order of the common modes agrees with the real CFRunLoop")
struct CommonModeOrderTests {
    /// What one source's schedule and cancel callouts saw, in order.
    final class CalloutLog: @unchecked Sendable {
        // @unchecked Sendable: written only by the probe thread, read after it has signalled.
        var scheduled: [String] = []
        var cancelled: [String] = []
    }

    static let sets: [[String]] = [
        ["ModeY"], ["Tracking"], ["M1"], ["M1", "M2"], ["Modal", "Tracking"], ["Tracking", "Modal"],
        ["A", "B", "C"], ["C", "B", "A"], ["ModeA", "ModeB", "ModeC", "ModeD"], ["x", "y", "z", "w", "v", "u", "t"],
        ["UITrackingRunLoopMode"], ["NSModalPanelRunLoopMode", "NSEventTrackingRunLoopMode"],
        (1...12).map { "Mode\($0)" }, (1...25).map { "m\($0)" }, ["a" + String(repeating: "b", count: 120)],
        ["Tracking", String(repeating: "q", count: 100), "Z"], ["é", "ü", "Ω"],
    ]

    /// Adds one source0 to, then removes it from, the common modes of a fresh thread's loop made with `names`
    /// common, and returns the modes its schedule and cancel callouts named (`default` for CF's default mode).
    static func probe(_ names: [String]) -> CalloutLog {
        let log = CalloutLog()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let loop = CFRunLoopGetCurrent()
            for name in names { CFRunLoopAddCommonMode(loop, CFBridgeName.make(name)) }
            var context = CFRunLoopSourceContext()
            context.version = 0
            context.info = Unmanaged.passUnretained(log).toOpaque()
            context.schedule = { info, _, mode in
                Unmanaged<CalloutLog>.fromOpaque(info!).takeUnretainedValue().scheduled.append(CFBridgeName.read(mode))
            }
            context.cancel = { info, _, mode in
                Unmanaged<CalloutLog>.fromOpaque(info!).takeUnretainedValue().cancelled.append(CFBridgeName.read(mode))
            }
            context.perform = { _ in }
            let source = CFRunLoopSourceCreate(nil, 0, &context)
            CFRunLoopAddSource(loop, source, kCFRunLoopCommonModes)
            CFRunLoopRemoveSource(loop, source, kCFRunLoopCommonModes)
            CFRunLoopSourceInvalidate(source)
            done.signal()
        }
        thread.start()
        done.wait()
        return log
    }

    @Test(
        "a source added to and removed from the common modes: its callouts come in the model's order", arguments: sets)
    func calloutsFollowTheSetOrder(names: [String]) {
        var model = CommonModeSet()
        for name in names { model.insert(ModeName(name)) }
        let expected = model.modes.map(\.rawValue)
        let log = Self.probe(names)
        #expect(log.scheduled == expected)
        #expect(log.cancelled == expected)
    }
}

/// Mode names as CF strings and back.
private enum CFBridgeName {
    static func make(_ name: String) -> CFString {
        CFStringCreateWithCString(nil, name, CFStringBuiltInEncodings.UTF8.rawValue)
    }

    static func read(_ mode: CFString?) -> String {
        guard let mode else { return "" }
        let name = String(describing: mode)
        return name == "kCFRunLoopDefaultMode" ? ModeName.default.rawValue : name
    }
}
#endif
