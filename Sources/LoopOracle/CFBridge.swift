import CLoopKernel
import CoreFoundation
import Foundation
import LoopEngine

#if os(Linux)
/// Translations between the scenario model and CoreFoundation, and access to the private CF symbols the oracle
/// needs. Linux only, like the CF oracle: Apple's CoreFoundation imports some of these types differently.
enum CFBridge {
    /// A CFString with `text`'s contents (`as CFString` is not available on Linux).
    static func string(_ text: String) -> CFString {
        CFStringCreateWithCString(nil, text, CFStringBuiltInEncodings.UTF8.rawValue)
    }

    /// The CF name of a mode: `default` → `kCFRunLoopDefaultMode`, `common` → `kCFRunLoopCommonModes`, any other
    /// name → a CFString of `prefix` and its raw value (the main thread's loop gets fresh names per scenario).
    static func mode(_ name: ModeName, prefix: String = "") -> CFRunLoopMode {
        switch name {
        case .default: kCFRunLoopDefaultMode
        case .common: kCFRunLoopCommonModes
        default: string(prefix + name.rawValue)
        }
    }

    /// The mode argument of `CFRunLoopPerformBlock`: the mode's CFString for one mode, a CFArray of them otherwise.
    static func blockTag(_ modes: [ModeName], prefix: String = "") -> CFTypeRef {
        if modes.count == 1 { return mode(modes[0], prefix: prefix) }
        let names = modes.map { mode($0, prefix: prefix) }
        var values: [UnsafeRawPointer?] = names.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        let array = withExtendedLifetime(names) {
            CFArrayCreate(nil, &values, values.count, [kCFTypeArrayCallBacks])
        }
        return array!
    }

    /// Foundation's name of a mode, for `RunLoop.run(mode:before:)`.
    static func foundationMode(_ name: ModeName, prefix: String = "") -> RunLoop.Mode {
        switch name {
        case .default: .default
        case .common: .common
        default: RunLoop.Mode(prefix + name.rawValue)
        }
    }

    /// `void _CFRunLoopStopMode(CFRunLoopRef rl, CFStringRef modeName)`.
    typealias StopModeFunction = @convention(c) (CFRunLoop?, CFString?) -> Void

    /// `_CFRunLoopStopMode`, looked up in libFoundation.so (it is exported but declared only in CFPriv.h, which
    /// the CoreFoundation module does not import); nil when the symbol cannot be found.
    static func stopModeFunction() -> StopModeFunction? {
        let symbol = "_CFRunLoopStopMode"
        var address: UnsafeMutableRawPointer?
        if let handle = dlopen("libFoundation.so", RTLD_LAZY | RTLD_NOLOAD) {
            address = dlsym(handle, symbol)
            dlclose(handle)
        }
        if address == nil { address = dlsym(nil, symbol) }  // RTLD_DEFAULT
        guard let address else { return nil }
        return unsafeBitCast(address, to: StopModeFunction.self)
    }

    /// The result as the engine knows it; CF returns nothing else.
    static func result(_ result: CFRunLoopRunResult) -> RunResult {
        guard let known = RunResult(rawValue: result.rawValue) else {
            preconditionFailure("CFRunLoopRunInMode returned \(result.rawValue), not a CFRunLoopRunResult")
        }
        return known
    }
}
#endif

/// The monotonic clock CF uses on Linux, and sleeps that can be cut short.
enum OracleClock {
    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> Int64 { lv_monotonic_ns() }

    /// Sleeps until `deadline` (monotonic nanoseconds) in slices of at most 5 ms, returning early as soon as
    /// `keepGoing` answers false. Returns false when it was cut short.
    @discardableResult
    static func sleep(until deadline: Int64, while keepGoing: () -> Bool) -> Bool {
        while true {
            guard keepGoing() else { return false }
            let remaining = deadline - now()
            if remaining <= 0 { return true }
            let slice = min(remaining, 5_000_000)
            var request = timespec(tv_sec: Int(slice / 1_000_000_000), tv_nsec: Int(slice % 1_000_000_000))
            _ = nanosleep(&request, nil)
        }
    }
}

extension Duration {
    /// The duration for `DispatchTime` arithmetic, saturating.
    var dispatchInterval: DispatchTimeInterval {
        let nanoseconds = max(nanosecondsClamped, 0)
        return nanoseconds >= Int64(Int.max) ? .never : .nanoseconds(Int(nanoseconds))
    }
}
