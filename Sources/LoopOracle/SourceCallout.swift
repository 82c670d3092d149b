#if os(Linux)
import CLoopKernel
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine
import Synchronization

/// What a source's `context.info` points at: the item and a way back to its host from CF's C callbacks.
/// CF retains it through the context's retain/release callbacks for as long as the source lives.
final class SourceCallout {
    weak var host: OracleHost?
    let name: String
    /// `.source0` or `.source1`.
    let kind: LoopEvent.Kind
    let script: [ScriptStep]
    /// The eventfd of a port source (-1 for version 0).
    let fd: Int32
    /// What the callout does after the script (the perform source runs its queued tasks).
    let body: (@Sendable () -> Void)?

    init(
        host: OracleHost, name: String, kind: LoopEvent.Kind, script: [ScriptStep], fd: Int32 = -1,
        body: (@Sendable () -> Void)? = nil
    ) {
        self.host = host
        self.name = name
        self.kind = kind
        self.script = script
        self.fd = fd
        self.body = body
    }

    private static func from(_ info: UnsafeRawPointer) -> SourceCallout {
        Unmanaged<SourceCallout>.fromOpaque(info).takeUnretainedValue()
    }

    static func retain(_ info: UnsafeRawPointer?) -> UnsafeRawPointer? {
        if let info { _ = Unmanaged<SourceCallout>.fromOpaque(info).retain() }
        return info
    }

    static func release(_ info: UnsafeRawPointer?) {
        if let info { Unmanaged<SourceCallout>.fromOpaque(info).release() }
    }

    static func port(_ info: UnsafeMutableRawPointer?) -> Int32 {
        guard let info else { return -1 }
        return from(info).fd
    }

    static func perform(_ info: UnsafeMutableRawPointer?) {
        guard let info else { return }
        let callout = from(info)
        callout.host?.callout(callout.kind, callout.name, callout.script, activity: nil)
        callout.body?()
    }
}
#endif
