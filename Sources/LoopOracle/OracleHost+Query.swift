#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// The real CF's answers to a scenario's queries: each question is asked with the very call it names, of the
/// scenario thread's loop (from an outside thread too), and recorded as the engine records it.
extension OracleHost {
    /// The answer to `question`, asked of this thread's loop with the call it names; the item it names is
    /// `holder`'s CF object (the interpreter's ``owner(of:)``), another thread's when the program holds one.
    func answer(_ question: LoopQuery, itemsOf holder: OracleHost) -> QueryAnswer {
        switch question {
        case .currentMode:
            return CFRunLoopCopyCurrentMode(loop).map { .mode(scenarioMode($0)) } ?? .none
        case .limitDate(let mode):
            // On the scenario thread Foundation polls the mode first: a run the oracle cannot see, like a wrapper's.
            let own = CFRunLoopGetCurrent() === loop
            if own { trace.beginRun(mode, runStart: nil) }
            let date = runLoop.limitDate(forMode: foundationMode(mode))
            if own { trace.endRun(result: nil) }
            guard let date else { return .none }
            if date == .distantFuture { return .distantFuture }
            return .date(instant(date.timeIntervalSinceReferenceDate))
        case .nextTimerFireDate(let mode):
            return date(CFRunLoopGetNextTimerFireDate(loop, cfMode(mode)))
        case .isWaiting:
            return .flag(CFRunLoopIsWaiting(loop))
        case .contains(let item, let mode):
            let mode = cfMode(mode)
            if let source = holder.sources[item] { return .flag(CFRunLoopContainsSource(loop, source, mode)) }
            if let timer = holder.timers[item] { return .flag(CFRunLoopContainsTimer(loop, timer, mode)) }
            if let observer = holder.observers[item] { return .flag(CFRunLoopContainsObserver(loop, observer, mode)) }
            return .flag(false)
        case .isValid(let item):
            if let source = holder.sources[item] { return .flag(CFRunLoopSourceIsValid(source)) }
            if let timer = holder.timers[item] { return .flag(CFRunLoopTimerIsValid(timer)) }
            if let observer = holder.observers[item] { return .flag(CFRunLoopObserverIsValid(observer)) }
            return .flag(false)
        case .nextFireDate(let name):
            guard let timer = holder.timers[name] else { return .none }
            return date(CFRunLoopTimerGetNextFireDate(timer))
        case .allModes:
            return .modes(scenarioModes(CFRunLoopCopyAllModes(loop)).sorted())
        case .interval(let name):
            return .duration(timers[name].map { .secondsValue(CFRunLoopTimerGetInterval($0)) } ?? .zero)
        case .tolerance(let name):
            return .duration(timers[name].map { .secondsValue(CFRunLoopTimerGetTolerance($0)) } ?? .zero)
        case .repeats(let name):
            return .flag(timers[name].map { CFRunLoopTimerDoesRepeat($0) } ?? false)
        }
    }

    /// A CF date as an instant since the scenario start; CF's 0 means none.
    private func date(_ absolute: CFAbsoluteTime) -> QueryAnswer {
        absolute == 0 ? .none : .date(instant(absolute))
    }

    private func instant(_ absolute: CFAbsoluteTime) -> LoopInstant {
        .zero + .secondsValue(absolute - originAbsolute)
    }

    /// With ``tracedModes`` set, adds the tracer to every mode that has come to exist since the last look (the
    /// scenario's actions are the only ones that create modes, so looking after each one, and before each run, is
    /// enough for the tracer to see every activity).
    func traceCreatedModes() {
        guard let tracer, tracedModes.withLock({ $0 != nil }) else { return }
        let existing = scenarioModes(CFRunLoopCopyAllModes(loop))
        let added = tracedModes.withLock { traced -> [ModeName] in
            let new = existing.filter { $0 != .common && traced?.contains($0) == false }
            traced?.formUnion(new)
            return new
        }
        for mode in added { CFRunLoopAddObserver(loop, tracer, cfMode(mode)) }
    }
}

extension OracleHost {
    /// The scenario's names of a CFArray of this loop's mode names (`CFRunLoopCopyAllModes`). On the main
    /// thread's loop, which outlives each scenario, the modes earlier scenarios made (under other prefixes) are
    /// not this scenario's and are left out: named again under this prefix they would be made anew, and every
    /// scenario would double the loop's modes (and their file descriptors).
    func scenarioModes(_ array: CFArray?) -> [ModeName] {
        guard let array else { return [] }
        let prefix = spec.isMain ? world.mainModePrefix : ""
        return (0..<CFArrayGetCount(array)).compactMap { index in
            let name = unsafeBitCast(CFArrayGetValueAtIndex(array, index), to: CFString.self)
            if !prefix.isEmpty {
                let text = CFBridge.swiftString(name)
                guard text == "kCFRunLoopDefaultMode" || text.hasPrefix(prefix) else { return nil }
            }
            return scenarioMode(name)
        }
    }
}

extension CFBridge {
    /// The scenario's name of a CF mode: `kCFRunLoopDefaultMode` is `default`, `kCFRunLoopCommonModes` `common`.
    static func modeName(_ name: CFString) -> ModeName {
        let text = swiftString(name)
        switch text {
        case "kCFRunLoopDefaultMode": return .default
        case "kCFRunLoopCommonModes": return .common
        default: return ModeName(text)
        }
    }

    /// A CFString's text, copied out as UTF-8.
    static func swiftString(_ string: CFString) -> String {
        let length = CFStringGetLength(string)
        let capacity = CFStringGetMaximumSizeForEncoding(length, CFStringBuiltInEncodings.UTF8.rawValue) + 1
        var buffer = [CChar](repeating: 0, count: capacity)
        guard CFStringGetCString(string, &buffer, capacity, CFStringBuiltInEncodings.UTF8.rawValue) else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

#endif
