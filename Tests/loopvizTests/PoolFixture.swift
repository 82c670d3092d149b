import LoopEngine

@testable import loopviz

/// A pool scenario built in Swift (the `.loop` syntax for queues is not parsed yet): a main thread kept alive by a
/// port adds five operations to `uploads` (limit 2, workers retire after 2 s idle); the outside world finishes the
/// two uploads and cancels one queued operation.
enum PoolFixture {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    static func add(
        _ name: String, _ priority: QueuePriority, _ body: OperationSpec.Body, after: [String] = []
    ) -> Action {
        .addOperation(
            queue: "uploads", OperationSpec(name: name, priority: priority, dependencies: after, body: body))
    }

    static let scenario = Scenario(
        name: "Uploads on a pool",
        threads: [
            ThreadSpec(
                name: "main", isMain: true, items: [.port("keepAlive")],
                program: [
                    add("thumb", .high, .work(ms(300), checkEvery: nil)),
                    add("upload1", .normal, .async),
                    add("upload2", .normal, .async),
                    add("index", .veryLow, .work(ms(200), checkEvery: nil), after: ["upload1"]),
                    add("log", .low, .work(ms(100), checkEvery: ms(50))),
                    add("cleanup", .normal, .work(ms(100), checkEvery: nil)),
                    .run(.untilStopped),
                ])
        ],
        outside: [
            OutsideEvent(at: ms(400), thread: "main", [.cancelOperation("cleanup")]),
            OutsideEvent(at: ms(800), thread: "main", [.finishOperation("upload1")]),
            OutsideEvent(at: ms(1200), thread: "main", [.finishOperation("upload2")]),
        ],
        queues: [QueueSpec(name: "uploads", limit: 2, idleTimeout: .seconds(2))])

    static let fileName = "uploads.loop"

    static func model(width: Int = 80, height: Int = 24) -> AppModel {
        var model = AppModel(
            session: Session(script: LoopScript(scenario: scenario, until: .seconds(5))), fileName: fileName)
        _ = updateInline(&model, .resize(width: width, height: height))
        return model
    }
}
