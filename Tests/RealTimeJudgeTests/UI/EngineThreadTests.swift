import LoopEngine
import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's engine runner: a run on a thread of its own, its answer waking the UI's poll.
@Suite("the engine thread")
struct EngineThreadTests {
    @Test("a run started is answered through the runner's pipe, as computed on the caller's thread")
    func answersThroughThePipe() throws {
        let script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        let session = Session(uncomputed: script)
        let request = try #require(session.pending)
        let runner = EngineThread()
        runner.start(request)
        var answers: [EngineResult] = []
        // Bounded: a minute is far beyond the run's few milliseconds, even on a loaded machine.
        for _ in 0..<600 where answers.isEmpty {
            var ready = [pollfd(fd: try #require(runner.readEnd), events: Int16(POLLIN), revents: 0)]
            _ = poll(&ready, 1, 100)
            answers += runner.take()
        }
        #expect(answers == [request.run()])
    }
}
