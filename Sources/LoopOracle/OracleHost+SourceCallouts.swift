#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// A scenario's version-0 source on the real CFRunLoop, as the run-loops chapter builds a custom input source: a
/// context with schedule, perform and cancel callbacks. CF calls schedule inside `CFRunLoopAddSource` (and
/// `CFRunLoopAddCommonMode`) once per concrete mode the source is inserted into, cancel inside
/// `CFRunLoopRemoveSource` and `CFRunLoopSourceInvalidate` once per mode it leaves; each records a `schedule` or
/// `cancel` event (its mode) and runs the scenario's `on schedule:` / `on cancel:` steps, as the engine does. The
/// command queue (`post CMD to SOURCE`) is the engine's own type (`SourceCommandQueue`): posted under a lock,
/// drained in order at the start of the perform, dropped at invalidation.
final class CustomSourceInfo: @unchecked Sendable {
    // @unchecked Sendable: `host` is set once; the queue guards itself.
    weak var host: OracleHost?
    let name: String
    let script: [ScriptStep]
    let callouts: SourceCallouts
    private let queue: SourceCommandQueue

    init(host: OracleHost, name: String, script: [ScriptStep], callouts: SourceCallouts) {
        self.host = host
        self.name = name
        self.script = script
        self.callouts = callouts
        queue = SourceCommandQueue(capacity: callouts.commandCapacity)
    }

    private static func from(_ info: UnsafeRawPointer) -> CustomSourceInfo {
        Unmanaged<CustomSourceInfo>.fromOpaque(info).takeUnretainedValue()
    }

    static func retain(_ info: UnsafeRawPointer?) -> UnsafeRawPointer? {
        if let info { _ = Unmanaged<CustomSourceInfo>.fromOpaque(info).retain() }
        return info
    }

    static func release(_ info: UnsafeRawPointer?) {
        if let info { Unmanaged<CustomSourceInfo>.fromOpaque(info).release() }
    }

    static func perform(_ info: UnsafeMutableRawPointer?) {
        guard let info else { return }
        let source = from(info)
        source.host?.callout(.source0, source.name, source.script, activity: nil) { source.performCommands() }
    }

    static func schedule(_ info: UnsafeMutableRawPointer?, _ loop: CFRunLoop?, _ mode: CFRunLoopMode?) {
        guard let info else { return }
        from(info).sourceCallout(.schedule, loop, mode)
    }

    static func cancel(_ info: UnsafeMutableRawPointer?, _ loop: CFRunLoop?, _ mode: CFRunLoopMode?) {
        guard let info else { return }
        from(info).sourceCallout(.cancel, loop, mode)
    }

    /// A schedule or cancel callout. Nothing is recorded once the thread's program has returned: CF then tears
    /// the thread's loop down at thread exit, calling cancel for every mode (docs/cfrunloop.md §18.2), and the
    /// oracle's own invalidation of every item at the end calls it too.
    private func sourceCallout(_ kind: LoopEvent.Kind, _ loop: CFRunLoop?, _ mode: CFRunLoopMode?) {
        guard let host, !host.isHalted, !host.world.isFinished, !host.programEnded.withLock({ $0 }) else { return }
        // The loop the source joins or leaves records it: another thread's, for `add … on THREAD`.
        let recorder = loop.map { host.host(of: $0) } ?? host
        let modeName = mode.map { recorder.scenarioMode($0) } ?? .default
        recorder.trace.record(kind, name, fact: .mode(modeName.rawValue))
        let steps = kind == .schedule ? callouts.schedule : callouts.cancel
        host.runScript("\(name) \(kind.rawValue)", steps, activity: nil, as: host)
    }

    /// `post CMD to SOURCE`, recorded on the source's thread's trace at the client's moment.
    func post(_ command: String) {
        let outcome = queue.post(command)
        host?.trace.record(.command, command, fact: .command(LoopEvent.CommandStep(source: name, outcome)))
    }

    /// At the start of the perform (after its `source0` event): the commands queued now, first posted first.
    private func performCommands() {
        guard let host else { return }
        for command in queue.takeAll() {
            if host.isHalted { return }
            host.trace.record(.command, command, fact: .command(LoopEvent.CommandStep(source: name, .performed)))
        }
    }

    /// After the program's `CFRunLoopSourceInvalidate`: what is still queued is never performed.
    func dropCommands() {
        guard let host, !host.isHalted else { return }
        for command in queue.takeAll() {
            host.trace.record(.command, command, fact: .command(LoopEvent.CommandStep(source: name, .dropped)))
        }
    }
}

extension OracleHost {
    /// A scenario's source0: the chapter's custom input source, with all three callbacks.
    func makeSource0(_ name: String, order: Int, script: [ScriptStep], callouts: SourceCallouts) -> CFRunLoopSource {
        let info = CustomSourceInfo(host: self, name: name, script: script, callouts: callouts)
        customSources[name] = info
        var context = CFRunLoopSourceContext()
        context.version = 0
        context.info = Unmanaged.passUnretained(info).toOpaque()
        context.retain = { info in CustomSourceInfo.retain(info) }
        context.release = { info in CustomSourceInfo.release(info) }
        context.perform = { info in CustomSourceInfo.perform(info) }
        context.schedule = { info, loop, mode in CustomSourceInfo.schedule(info, loop, mode) }
        context.cancel = { info, loop, mode in CustomSourceInfo.cancel(info, loop, mode) }
        return withExtendedLifetime(info) { CFRunLoopSourceCreate(nil, CFIndex(order), &context) }
    }
}
#endif
