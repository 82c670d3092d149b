import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's engine runner: each run on a thread of its own, so the UI's thread goes on taking keys and
/// drawing "computing…" while a long trace is computed. An answer crosses back through a locked list, and a byte
/// on a pipe wakes the UI's `poll`. A run still going when the UI quits ends with the process.
final class EngineThread: EngineRunner, @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var answers: [EngineResult] = []
    private let pipeEnds: [Int32]

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        pipeEnds = ends
    }

    // A running thread holds the runner (its block captures it), so the pipe outlives every writer.
    deinit {
        for end in pipeEnds where end >= 0 { close(end) }
    }

    var readEnd: Int32? { pipeEnds[0] >= 0 ? pipeEnds[0] : nil }

    func start(_ request: EngineRequest) {
        let thread = Thread { [self] in
            let result = request.run()
            lock.withLock { answers.append(result) }
            var byte: UInt8 = 1
            _ = write(pipeEnds[1], &byte, 1)
        }
        thread.start()
    }

    func take() -> [EngineResult] {
        var bytes = [UInt8](repeating: 0, count: 64)
        if pipeEnds[0] >= 0 {
            while read(pipeEnds[0], &bytes, bytes.count) > 0 {}
        }
        return lock.withLock {
            defer { answers = [] }
            return answers
        }
    }
}
